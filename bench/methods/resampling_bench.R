# Straightforward R versions of the stratified randomization test and the
# within-benchmark bootstrap of the GM ratio (Li, Chen & Peng §III-§IV) on the
# same kind of suite; prints replicates per second. Args: benchmarks runs reps.
a <- as.integer(commandArgs(TRUE))
nb <- a[1]; m <- a[2]; reps <- a[3]
set.seed(1)
base <- lapply(1:nb, function(b) b * (1 + 0.02 * runif(m)))
cand <- lapply(1:nb, function(b) b * (0.99 + 0.02 * runif(m)))
gm <- function(l) exp(mean(log(sapply(l, mean))))
t_rt <- system.time(for (r in 1:reps) {
  s <- lapply(1:nb, function(i) { p <- sample(c(base[[i]], cand[[i]])); list(p[1:m], p[(m + 1):(2 * m)]) })
  gm(lapply(s, `[[`, 2)) / gm(lapply(s, `[[`, 1))
})[["elapsed"]]
t_bs <- system.time(for (r in 1:reps) {
  gm(lapply(cand, function(v) sample(v, replace = TRUE))) / gm(lapply(base, function(v) sample(v, replace = TRUE)))
})[["elapsed"]]
cat(sprintf("R_RT_RATE=%.6g\nR_BS_RATE=%.6g\n", reps / t_rt, reps / t_bs))
