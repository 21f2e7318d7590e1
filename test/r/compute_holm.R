# Holm's (1979) step-down adjusted p-values of fixed p-value sets, from R's
# p.adjust(p, "holm"), and each p-value's rank (0 = smallest, ties in input
# order). The family of a benchmark's comparisons (analysis/family.hpp) uses
# them; test/unit/analysis_report/family_test.cpp compares alea with them.
# Writes "id,field,value" rows (value with %.17g; fields p.<i>, holm.<i>,
# rank.<i>, 0-based i) to the first argument (default golden/holm.csv).
# Usage: compute_holm.R [out.csv] [test/r dir].
args <- commandArgs(trailingOnly = TRUE)
here <- if (length(args) >= 2) args[2] else "."
out <- if (length(args) >= 1) args[1] else file.path(here, "golden/holm.csv")
fmt <- function(v) sprintf("%.17g", v)
rows <- list()
emit <- function(id, field, value) rows[[length(rows) + 1]] <<- c(id, field, fmt(value))
sets <- list(
  mixed = c(0.01, 0.04, 0.03, 0.2, 0.005, 0.5),
  ties = c(0.02, 0.02, 0.01, 0.9),
  capped = c(0.3, 0.6, 0.45),
  tiny = c(1e-12, 3.7e-9, 0.0125, 0.049, 0.0166))
for (id in names(sets)) {
  p <- sets[[id]]
  h <- p.adjust(p, "holm")
  r <- rank(p, ties.method = "first") - 1
  for (i in seq_along(p)) {
    emit(id, paste0("p.", i - 1), p[i])
    emit(id, paste0("holm.", i - 1), h[i])
    emit(id, paste0("rank.", i - 1), r[i])
  }
}
res <- do.call(rbind, rows)
colnames(res) <- c("id", "field", "value")
write.csv(res, out, row.names = FALSE, quote = FALSE)
