# Fieller's interval for a PAIRED ratio of means (Fieller 1954, the general
# theorem with the covariance term; docs/statistics.md §4 "Paired") on the
# build means of data/paired.csv, written out in closed form: with c_i, b_i
# the candidate's and the baseline's build means of pair i (n pairs),
#   m = mean(c), d = mean(b), v_mm = var(c)/n, v_dd = var(b)/n,
#   v_md = cov(c, b)/n (R's var/cov: divisor n - 1), q = qt(0.975, n - 1),
#   a = d^2 - q^2 v_dd, b = m d - q^2 v_md, c = m^2 - q^2 v_mm,
#   limits (b -+ sqrt(b^2 - a c)) / a.
# Also the normal-quantile variant and the unpaired interval (v_md = 0, same
# nu) on the same data. Writes "id,field,value" rows (value with %.17g) to the
# first argument (default golden/paired.csv); the unit test
# test/unit/analysis_core/fieller_paired_test.cpp compares alea with it.
# Usage: compute_paired.R [out.csv] [test/r dir].
args <- commandArgs(trailingOnly = TRUE)
here <- if (length(args) >= 2) args[2] else "."
out <- if (length(args) >= 1) args[1] else file.path(here, "golden/paired.csv")
d <- read.csv(file.path(here, "data/paired.csv"))
fmt <- function(v) sprintf("%.17g", v)
rows <- list()
emit <- function(id, field, value) rows[[length(rows) + 1]] <<- c(id, field, fmt(value))
fieller <- function(m, vmm, d, vdd, vmd, q) {
  a <- d^2 - q^2 * vdd
  b <- m * d - q^2 * vmd
  c <- m^2 - q^2 * vmm
  stopifnot(a > 0)
  (b + c(-1, 1) * sqrt(b^2 - a * c)) / a
}
for (id in unique(d$dataset)) {
  s <- d[d$dataset == id, ]
  means <- function(sys) {
    x <- s[s$system == sys, ]
    a <- aggregate(value ~ build, data = x, FUN = mean)
    a$value[order(a$build)]
  }
  cm <- means("cand")
  bm <- means("base")
  n <- length(cm)
  stopifnot(n == length(bm))
  m <- mean(cm); dd <- mean(bm)
  vmm <- var(cm) / n; vdd <- var(bm) / n; vmd <- cov(cm, bm) / n
  q <- qt(0.975, n - 1)
  emit(id, "n", n)
  emit(id, "m", m)
  emit(id, "d", dd)
  emit(id, "vmm", vmm)
  emit(id, "vdd", vdd)
  emit(id, "vmd", vmd)
  emit(id, "cor", cor(cm, bm))
  emit(id, "estimate", m / dd)
  emit(id, "q", q)
  p <- fieller(m, vmm, dd, vdd, vmd, q)
  emit(id, "lower", p[1])
  emit(id, "upper", p[2])
  pn <- fieller(m, vmm, dd, vdd, vmd, qnorm(0.975))
  emit(id, "lower.normal", pn[1])
  emit(id, "upper.normal", pn[2])
  u <- fieller(m, vmm, dd, vdd, 0, q)
  emit(id, "unpaired.lower", u[1])
  emit(id, "unpaired.upper", u[2])
}
res <- do.call(rbind, rows)
colnames(res) <- c("id", "field", "value")
write.csv(res, out, row.names = FALSE, quote = FALSE)
