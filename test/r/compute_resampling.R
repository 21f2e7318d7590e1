# Exact (exhaustive) stratified randomization test of Li, Chen & Peng (§III)
# on the small suites of data/suites.csv, written independently in R: every
# within-benchmark split of the pooled runs into groups of the original sizes,
# ratio = summary(candidate) / summary(baseline) for the four suite means.
# Counts use the relative tolerance 1e-12 (spec §2.9). Writes "id,field,value"
# to golden/resampling.csv (or the first argument).
args <- commandArgs(trailingOnly = TRUE)
here <- if (length(args) >= 2) args[2] else "."
out <- if (length(args) >= 1) args[1] else file.path(here, "golden/resampling.csv")
d <- read.csv(file.path(here, "data/suites.csv"))
fmt <- function(v) sprintf("%.17g", v)
rows <- list()
emit <- function(id, field, value) rows[[length(rows) + 1]] <<- c(id, field, fmt(value))
summ <- list(
  gm_of_means = list(bench = function(v) mean(v), suite = function(s) exp(mean(log(s)))),
  gm_of_all = list(bench = function(v) mean(log(v)), suite = function(s) exp(mean(s))),
  am = list(bench = function(v) mean(v), suite = function(s) mean(s)),
  hm = list(bench = function(v) mean(v), suite = function(s) length(s) / sum(1 / s)))
for (suite in unique(d$suite)) {
  s <- d[d$suite == suite, ]
  benches <- unique(s$benchmark)
  pools <- lapply(benches, function(b) c(s$value[s$benchmark == b & s$system == "baseline"],
                                         s$value[s$benchmark == b & s$system == "candidate"]))
  nb <- sapply(benches, function(b) sum(s$benchmark == b & s$system == "baseline"))
  splits <- lapply(seq_along(pools), function(i) combn(length(pools[[i]]), nb[i], simplify = FALSE))
  grid <- expand.grid(lapply(splits, seq_along))
  for (m in names(summ)) {
    f <- summ[[m]]
    ratio <- function(choice) {
      bs <- sapply(seq_along(pools), function(i) f$bench(pools[[i]][splits[[i]][[choice[i]]]]))
      cs <- sapply(seq_along(pools), function(i) f$bench(pools[[i]][-splits[[i]][[choice[i]]]]))
      f$suite(cs) / f$suite(bs)
    }
    obs <- ratio(rep(1, length(pools)))  # combn's first split = the observed labels
    all <- apply(grid, 1, ratio)
    id <- paste(suite, m, sep = "_")
    emit(id, "observed", obs)
    emit(id, "splits", length(all))
    emit(id, "count.less", sum(all <= obs + 1e-12 * abs(obs)))
    emit(id, "count.greater", sum(all >= obs - 1e-12 * abs(obs)))
  }
}
res <- do.call(rbind, rows)
colnames(res) <- c("id", "field", "value")
write.csv(res, out, row.names = FALSE, quote = FALSE)
