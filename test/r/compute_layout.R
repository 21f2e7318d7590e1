# The layout effect's two formulas, written independently in R (layout_effect.hpp):
# the modified large-sample (MLS) interval on theta1 - theta2 of two
# independent mean squares (Ting, Burdick, Graybill et al. 1990; Burdick &
# Graybill 1992), two-sided at `conf` with a = (1 - conf)/2 on each side and
# qf()'s lower-tail quantiles, F_{a:u,v} (upper a) = qf(1 - a, u, v),
# F_{a:u,Inf} = qchisq(1 - a, u)/u; and d2(n), the expected range of n
# standard normals, by integrate(). Writes "id,field,value" rows (value with
# %.17g) to the first argument (default golden/layout.csv); the unit test
# test/unit/analysis_report/layout_effect_test.cpp compares alea with it.
# Usage: compute_layout.R [out.csv] [test/r dir].
args <- commandArgs(trailingOnly = TRUE)
here <- if (length(args) >= 2) args[2] else "."
out <- if (length(args) >= 1) args[1] else file.path(here, "golden/layout.csv")
fmt <- function(v) sprintf("%.17g", v)
rows <- list()
emit <- function(id, field, value) rows[[length(rows) + 1]] <<- c(id, field, fmt(value))
mls <- function(s1, nu1, s2, nu2, conf) {
  a <- (1 - conf) / 2
  fu <- function(nu) qchisq(1 - a, nu) / nu  # F_{a:nu,Inf}
  fl <- function(nu) qchisq(a, nu) / nu      # F_{1-a:nu,Inf}
  f12u <- qf(1 - a, nu1, nu2)
  f12l <- qf(a, nu1, nu2)
  g1 <- 1 - 1 / fu(nu1); h2 <- 1 / fl(nu2) - 1
  g12 <- ((f12u - 1)^2 - g1^2 * f12u^2 - h2^2) / f12u
  h1 <- 1 / fl(nu1) - 1; g2 <- 1 - 1 / fu(nu2)
  h12 <- ((1 - f12l)^2 - h1^2 * f12l^2 - g2^2) / f12l
  vl <- g1^2 * s1^2 + h2^2 * s2^2 + g12 * s1 * s2
  vu <- h1^2 * s1^2 + g2^2 * s2^2 + h12 * s1 * s2
  c(max(0, s1 - s2 - sqrt(max(vl, 0))), max(0, s1 - s2 + sqrt(max(vu, 0))))
}
# id, S1, nu1, S2, nu2, confidence
cases <- list(
  list("oneway", 6 / 5, 9, 1.5 / 5, 40, 0.95),       # MS_A = 6, MS_E = 1.5, 5 per group
  list("table5_old", 5.8125, 2, 6.916666666666667 / 2, 3, 0.95), # spec_000 §8.3: L clips at 0
  list("many", 0.04, 29, 0.001, 270, 0.99),
  list("below_zero", 0, 4, 0.2, 15, 0.95),
  list("exact_chisq", 2.5, 7, 0, 24, 0.90))
for (k in cases) {
  r <- mls(k[[2]], k[[3]], k[[4]], k[[5]], k[[6]])
  id <- paste0("mls_", k[[1]])
  emit(id, "s1", k[[2]]); emit(id, "nu1", k[[3]]); emit(id, "s2", k[[4]])
  emit(id, "nu2", k[[5]]); emit(id, "confidence", k[[6]])
  emit(id, "lower", r[1]); emit(id, "upper", r[2])
}
for (n in c(2, 3, 4, 5, 10, 25, 100, 1000)) {
  f <- function(x) 1 - pnorm(x)^n - pnorm(x, lower.tail = FALSE)^n
  emit("d2", as.character(n), 2 * integrate(f, 0, Inf, rel.tol = 1e-12, subdivisions = 1000L)$value)
}
res <- do.call(rbind, rows)
colnames(res) <- c("id", "field", "value")
write.csv(res, out, row.names = FALSE, quote = FALSE)
