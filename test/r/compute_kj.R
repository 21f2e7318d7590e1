# REML variance components (lme4) of the balanced 3-level data sets in
# data/kj_balanced.csv: value ~ 1 + (1 | build) + (1 | build:execution).
# On balanced data with positive components, REML equals the ANOVA
# (method-of-moments) estimators, which are Kalibera & Jones' unbiased T_i^2
# (TR 2012 §7.6; Searle, Casella & McCulloch 1992 §4.7). The optimizer
# tolerances are tightened so that lme4 reaches the optimum to ~1e-10.
# Writes "id,field,value": fields T2.build, T2.execution, T2.iteration,
# grand.mean, and the counts. Usage: compute_kj.R [out.csv] [test/r dir].
suppressPackageStartupMessages(library(lme4))
args <- commandArgs(trailingOnly = TRUE)
here <- if (length(args) >= 2) args[2] else "."
out <- if (length(args) >= 1) args[1] else file.path(here, "golden/kj.csv")
d <- read.csv(file.path(here, "data/kj_balanced.csv"))
fmt <- function(v) sprintf("%.17g", v)
rows <- list()
emit <- function(id, field, value) rows[[length(rows) + 1]] <<- c(id, field, fmt(value))
ctrl <- lmerControl(optimizer = "nloptwrap", calc.derivs = FALSE,
                    optCtrl = list(xtol_abs = 1e-14, ftol_abs = 1e-16,
                                   xtol_rel = 1e-14, ftol_rel = 1e-16, maxeval = 100000))
for (id in unique(d$dataset)) {
  s <- d[d$dataset == id, ]
  s$build <- factor(s$build); s$execution <- factor(s$execution)
  fit <- lmer(value ~ 1 + (1 | build) + (1 | build:execution), data = s, REML = TRUE,
              control = ctrl)
  vc <- as.data.frame(VarCorr(fit))
  emit(id, "T2.build", vc$vcov[vc$grp == "build"])
  emit(id, "T2.execution", vc$vcov[vc$grp == "build:execution"])
  emit(id, "T2.iteration", vc$vcov[vc$grp == "Residual"])
  emit(id, "grand.mean", fixef(fit)[[1]])
  emit(id, "n.build", nlevels(s$build))
  emit(id, "n.execution", length(unique(s$execution)))
  emit(id, "n.iteration", length(unique(s$iteration)))
}
res <- do.call(rbind, rows)
colnames(res) <- c("id", "field", "value")
write.csv(res, out, row.names = FALSE, quote = FALSE)
