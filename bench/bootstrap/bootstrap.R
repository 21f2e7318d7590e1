# Straightforward R implementation of the hierarchical RRR bootstrap of the
# ratio of means (Kalibera & Jones TR 2012, Figs. 1-2): resample builds, then
# executions of each drawn build, then iterations of each drawn execution, all
# with replacement; the two systems independently. Used by bench_bootstrap as
# the side-by-side reference; prints seconds per replicate and the CI.
#
# usage: Rscript bootstrap.R data.csv replicates baseline candidate
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
B <- as.integer(args[2])
baseline <- args[3]
candidate <- args[4]

to_array <- function(s) {
  x <- d[d$system == s, ]
  x <- x[order(x$build, x$execution, x$iteration), ]
  ni <- length(unique(x$iteration))
  ne <- length(unique(x$execution))
  nb <- length(unique(x$build))
  array(x$value, dim = c(ni, ne, nb))  # iteration varies fastest
}

resample_mean <- function(a) {
  ni <- dim(a)[1]; ne <- dim(a)[2]; nb <- dim(a)[3]
  total <- 0
  for (b in sample.int(nb, nb, replace = TRUE))
    for (e in sample.int(ne, ne, replace = TRUE))
      total <- total + sum(a[sample.int(ni, ni, replace = TRUE), e, b])
  total / (ni * ne * nb)
}

cand <- to_array(candidate)
base <- to_array(baseline)
set.seed(1)
cpu <- function() { p <- proc.time(); p[["user.self"]] + p[["sys.self"]] }
t0 <- proc.time()[["elapsed"]]
c0 <- cpu()
ratios <- replicate(B, resample_mean(cand) / resample_mean(base))
elapsed <- proc.time()[["elapsed"]] - t0
# CPU seconds are the steadier figure on a shared machine.
cat(sprintf("seconds_per_replicate %.9g\n", elapsed / B))
cat(sprintf("cpu_seconds_per_replicate %.9g\n", (cpu() - c0) / B))
cat(sprintf("estimate %.9g\n", mean(cand) / mean(base)))
q <- quantile(ratios, c(0.025, 0.975), type = 7)
cat(sprintf("interval %.9g %.9g\n", q[[1]], q[[2]]))
