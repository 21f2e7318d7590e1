# Reference values of the classical tests (t.test, var.test, wilcox.test,
# shapiro.test, ks.test, prop.test, Kendall trend, type-7 quantiles) for every
# case of cases.csv on the samples of data/samples.csv. Writes CSV rows
# "id,field,value" (value with %.17g) to the file named by the first argument
# (default golden/htest.csv). test/unit/analysis_methods/r_golden_test.cpp
# runs the same cases through alea and compares; check_golden.sh re-runs this
# script and compares with the committed golden file.
args <- commandArgs(trailingOnly = TRUE)
here <- if (length(args) >= 2) args[2] else "."
out <- if (length(args) >= 1) args[1] else file.path(here, "golden/htest.csv")
samples <- read.csv(file.path(here, "data/samples.csv"), stringsAsFactors = FALSE)
cases <- read.csv(file.path(here, "cases.csv"), stringsAsFactors = FALSE,
                  colClasses = "character")
get <- function(name) samples$value[samples$sample == name]
opts <- function(s) {
  if (is.na(s) || s == "") return(list())
  kv <- strsplit(strsplit(s, ";", fixed = TRUE)[[1]], "=", fixed = TRUE)
  setNames(lapply(kv, `[`, 2), sapply(kv, `[`, 1))
}
flag <- function(o, key, default) if (is.null(o[[key]])) default else as.logical(o[[key]])
fmt <- function(v) ifelse(is.infinite(v), ifelse(v > 0, "Inf", "-Inf"), sprintf("%.17g", v))
rows <- list()
emit <- function(id, field, value) rows[[length(rows) + 1]] <<- c(id, field, fmt(value))
for (i in seq_len(nrow(cases))) {
  cs <- cases[i, ]
  o <- opts(cs$options)
  x <- if (cs$x != "") get(cs$x) else NULL
  y <- if (cs$y != "") get(cs$y) else NULL
  if (!is.null(o$head)) { x <- head(x, as.integer(o$head)); if (!is.null(y)) y <- head(y, as.integer(o$head)) }
  if (flag(o, "center", FALSE)) { x <- x - median(x); y <- y - median(y) }
  alt <- cs$alternative
  conf <- if (cs$confidence != "") as.numeric(cs$confidence) else 0.95
  id <- cs$id
  if (cs$test == "t.test") {
    r <- t.test(x, y, alternative = alt, conf.level = conf, var.equal = flag(o, "var.equal", FALSE))
    emit(id, "statistic", r$statistic); emit(id, "df", r$parameter)
    emit(id, "p.value", r$p.value); emit(id, "conf.low", r$conf.int[1])
    emit(id, "conf.high", r$conf.int[2]); emit(id, "mean.x", r$estimate[1])
    emit(id, "mean.y", r$estimate[2])
  } else if (cs$test == "var.test") {
    r <- var.test(x, y, alternative = alt, conf.level = conf)
    emit(id, "statistic", r$statistic); emit(id, "df1", r$parameter[1])
    emit(id, "df2", r$parameter[2]); emit(id, "p.value", r$p.value)
    emit(id, "conf.low", r$conf.int[1]); emit(id, "conf.high", r$conf.int[2])
    emit(id, "estimate", r$estimate)
  } else if (cs$test == "wilcox.test") {
    ex <- if (is.null(o$exact)) NULL else as.logical(o$exact)
    r <- suppressWarnings(wilcox.test(x, y, alternative = alt, exact = ex,
                                      correct = flag(o, "correct", TRUE)))
    emit(id, "statistic", r$statistic); emit(id, "p.value", r$p.value)
    emit(id, "exact", as.numeric(grepl("exact", r$method)))
    if (grepl("exact", r$method)) {  # Hodges-Lehmann estimate and interval
      ci <- wilcox.test(x, y, alternative = alt, exact = ex, conf.int = TRUE, conf.level = conf)
      emit(id, "conf.low", ci$conf.int[1]); emit(id, "conf.high", ci$conf.int[2])
      emit(id, "estimate", ci$estimate)
    }
  } else if (cs$test == "shapiro.test") {
    r <- shapiro.test(x)
    emit(id, "statistic", r$statistic); emit(id, "p.value", r$p.value)
  } else if (cs$test == "ks.test") {
    ex <- if (is.null(o$exact)) NULL else as.logical(o$exact)
    r <- suppressWarnings(ks.test(x, y, alternative = alt, exact = ex))
    emit(id, "statistic", r$statistic); emit(id, "p.value", r$p.value)
    emit(id, "exact", as.numeric(r$exact))
  } else if (cs$test == "prop.test") {
    p0 <- if (is.null(o$p)) 0.5 else as.numeric(o$p)
    r <- suppressWarnings(prop.test(as.numeric(o$x), as.numeric(o$n), p = p0,
                                    alternative = alt, conf.level = conf,
                                    correct = flag(o, "correct", TRUE)))
    emit(id, "statistic", r$statistic); emit(id, "p.value", r$p.value)
    emit(id, "conf.low", r$conf.int[1]); emit(id, "conf.high", r$conf.int[2])
    emit(id, "estimate", r$estimate)
  } else if (cs$test == "kendall.trend") {
    r <- suppressWarnings(cor.test(seq_along(x), x, method = "kendall", exact = FALSE))
    emit(id, "statistic", r$statistic); emit(id, "p.value", r$p.value)
    emit(id, "estimate", r$estimate)
  } else if (cs$test == "quantile7") {
    probs <- as.numeric(strsplit(o$probs, "|", fixed = TRUE)[[1]])
    q <- quantile(x, probs, type = 7, names = FALSE)
    for (k in seq_along(probs)) emit(id, sprintf("q%s", format(probs[k])), q[k])
  } else if (cs$test == "speedup.test") {
    # The Speedup-Test decision (docs/methods.md §2) written independently in
    # R: small samples -> Shapiro-Wilk gate -> var.test selects var.equal ->
    # one-sided t.test; median path: wilcox.test "greater", then ks.test on
    # the median-centred samples. Verdict codes: mean 0 significant, 1 not
    # significant, 2 not normal; median 0 median speedup, 1 P(X>Y) only, 2 no.
    risk <- 1 - conf
    small <- length(x) < 30 || length(y) < 30
    eq <- FALSE; mv <- NA; tp <- NA
    if (small && (shapiro.test(x)$p.value < risk || shapiro.test(y)$p.value < risk)) {
      mv <- 2
    } else {
      if (small) eq <- var.test(x, y, conf.level = conf)$p.value >= risk
      tp <- t.test(x, y, alternative = "greater", var.equal = eq, conf.level = conf)$p.value
      mv <- if (tp < risk) 0 else 1
    }
    wp <- suppressWarnings(wilcox.test(x, y, alternative = "greater"))$p.value
    kp <- suppressWarnings(ks.test(x - median(x), y - median(y)))$p.value
    md <- if (wp >= risk) 2 else if (kp >= risk) 0 else 1
    emit(id, "mean.verdict", mv); emit(id, "median.verdict", md)
    if (!is.na(tp)) { emit(id, "t.p.value", tp); emit(id, "pooled", as.numeric(eq)) }
    emit(id, "wilcox.p.value", wp); emit(id, "ks.p.value", kp)
    emit(id, "median.speedup", median(x) / median(y))
    emit(id, "mean.speedup", mean(x) / mean(y))
  } else if (cs$test == "median") {
    emit(id, "median", median(x))
  } else stop("unknown test ", cs$test)
}
res <- do.call(rbind, rows)
colnames(res) <- c("id", "field", "value")
write.csv(res, out, row.names = FALSE, quote = FALSE)
