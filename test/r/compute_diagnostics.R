# Deterministic parts of the diagnostics, written independently in R: Tukey
# fences on type-7 quartiles, the raw MAD (mad(constant = 1)), the outlier
# flags, and the best two-group split of the sorted values (R^2 = between SS /
# total SS, Engelman & Hartigan 1969) for samples of data/samples.csv; and
# Benjamini-Hochberg q-values (p.adjust) of the Kendall trend p-values of the
# trend samples. Writes "id,field,value" to golden/diagnostics.csv.
args <- commandArgs(trailingOnly = TRUE)
here <- if (length(args) >= 2) args[2] else "."
out <- if (length(args) >= 1) args[1] else file.path(here, "golden/diagnostics.csv")
samples <- read.csv(file.path(here, "data/samples.csv"), stringsAsFactors = FALSE)
get <- function(name) samples$value[samples$sample == name]
fmt <- function(v) sprintf("%.17g", v)
rows <- list()
emit <- function(id, field, value) rows[[length(rows) + 1]] <<- c(id, field, fmt(value))
for (nm in c("c1", "c2", "d1", "skew", "bimod", "tie1", "warm")) {
  x <- get(nm)
  q <- quantile(x, c(0.25, 0.5, 0.75), type = 7, names = FALSE)
  iqr <- q[3] - q[1]
  lo <- q[1] - 1.5 * iqr; hi <- q[3] + 1.5 * iqr
  madv <- mad(x, constant = 1)
  z <- if (madv > 0) 0.6745 * (x - median(x)) / madv else rep(0, length(x))
  flagged <- which(x < lo | x > hi | abs(z) > 3.5) - 1  # 0-based indices
  id <- paste0("outliers_", nm)
  emit(id, "q1", q[1]); emit(id, "q3", q[3]); emit(id, "lower.fence", lo)
  emit(id, "upper.fence", hi); emit(id, "mad", madv); emit(id, "count", length(flagged))
  emit(id, "index.sum", sum(flagged))
  s <- sort(x); n <- length(s); tss <- sum((s - mean(s))^2); best <- 0; k <- 0
  for (j in 1:(n - 1)) {
    a <- s[1:j]; b <- s[(j + 1):n]
    r2 <- 1 - (sum((a - mean(a))^2) + sum((b - mean(b))^2)) / tss
    if (r2 > best + 1e-12) { best <- r2; k <- j }
  }
  id <- paste0("split_", nm)
  emit(id, "r.squared", best); emit(id, "low.count", k)
}
p <- sapply(c("warm", "noise", "warmtie", "c1", "d1"), function(nm) {
  x <- get(nm)
  suppressWarnings(cor.test(seq_along(x), x, method = "kendall", exact = FALSE))$p.value
})
q <- p.adjust(p, "BH")
for (i in seq_along(q)) emit("bh_trends", names(q)[i], q[i])
res <- do.call(rbind, rows)
colnames(res) <- c("id", "field", "value")
write.csv(res, out, row.names = FALSE, quote = FALSE)
