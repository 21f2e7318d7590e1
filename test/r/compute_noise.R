# The noise diagnosis (analysis/noise.hpp) written independently in R for the
# data sets of data/noise.csv: residuals value / build mean - 1 in start-time
# order; their lag-1 autocorrelation with its null mean and sd computed from
# explicit matrices (M = I - P removes the build means, A = lag-1 adjacency,
# B = M A M; E r1 = tr B / nu, E r1^2 = (tr(B)^2 + 2 tr(B^2)) / (nu (nu + 2)),
# nu = n - builds), z and its two-sided normal p; the Mann-Kendall trend
# (cor.test kendall, exact = FALSE); Spearman (cor.test spearman,
# exact = FALSE) of the residuals with each covariate, Pearson and the
# within-build slope (lm(r ~ load + build)) for the load; Holm over the tested findings
# (p.adjust). Writes "id,field,value" to golden/noise.csv.
args <- commandArgs(trailingOnly = TRUE)
here <- if (length(args) >= 2) args[2] else "."
out <- if (length(args) >= 1) args[1] else file.path(here, "golden/noise.csv")
all <- read.csv(file.path(here, "data/noise.csv"), stringsAsFactors = FALSE)
fmt <- function(v) sprintf("%.17g", v)
rows <- list()
emit <- function(id, field, value) rows[[length(rows) + 1]] <<- c(id, field, fmt(value))
for (ds in unique(all$dataset)) {
  d <- all[all$dataset == ds, ]
  d <- d[order(d$started), ]
  group <- paste(d$system, d$build)
  r <- d$value / ave(d$value, group) - 1
  n <- length(r); k <- length(unique(group))
  r1 <- sum(r[-1] * r[-n]) / sum(r^2)
  X <- sapply(unique(group), function(g) as.numeric(group == g))
  M <- diag(n) - X %*% solve(crossprod(X)) %*% t(X)
  A <- matrix(0, n, n); A[cbind(1:(n - 1), 2:n)] <- 0.5; A[cbind(2:n, 1:(n - 1))] <- 0.5
  B <- M %*% A %*% M
  nu <- n - k
  m1 <- sum(diag(B)) / nu
  m2 <- (sum(diag(B))^2 + 2 * sum(diag(B %*% B))) / (nu * (nu + 2))
  sdv <- sqrt(m2 - m1^2)
  z <- (r1 - m1) / sdv
  id <- paste0("noise_", ds)
  emit(id, "lag1.r1", r1); emit(id, "lag1.null.mean", m1); emit(id, "lag1.null.sd", sdv)
  emit(id, "lag1.z", z)
  p <- c(drift = 2 * pnorm(abs(z), lower.tail = FALSE))
  est <- c(drift = r1)
  kt <- cor.test(seq_along(r), r, method = "kendall", exact = FALSE)
  p["trend"] <- kt$p.value; est["trend"] <- kt$estimate
  covs <- c(load = "load", padding = "padding", migration = "migrations",
            switches = "switches", frequency = "mhz")
  for (kind in names(covs)) {
    x <- d[[covs[kind]]]
    if (all(is.na(x))) next
    st <- suppressWarnings(cor.test(x, r, method = "spearman", exact = FALSE))
    p[kind] <- st$p.value; est[kind] <- st$estimate
  }
  pe <- cor.test(d$load, r, method = "pearson")
  emit(id, "pearson.load.r", pe$estimate); emit(id, "pearson.load.t", pe$statistic)
  emit(id, "pearson.load.p", pe$p.value)
  emit(id, "load.slope", coef(lm(r ~ d$load + factor(group)))[2])
  emit(id, "load.busy.share", mean(d$load > 0.5))
  holm <- p.adjust(p, "holm")
  for (kind in names(p)) {
    emit(id, paste0(kind, ".estimate"), est[kind])
    emit(id, paste0(kind, ".p"), p[kind])
    emit(id, paste0(kind, ".holm"), holm[kind])
  }
}
res <- do.call(rbind, rows)
colnames(res) <- c("id", "field", "value")
write.csv(res, out, row.names = FALSE, quote = FALSE)
