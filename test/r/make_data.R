# Generates the frozen input samples of the R-agreement tests (run once; the
# outputs in data/ are committed and are the inputs of compute_*.R and of the
# C++ golden test). Values are rounded to 4 decimals (like timings) so that
# both sides parse exactly the same doubles from the text.
set.seed(20261121)
r4 <- function(v) round(v, 4)
samples <- list(
  t1 = c(2.799, 2.046, 1.259, 1.877, 2.244),       # Touati 2009, s102
  t2 = c(1.046, 0.259, 0.877, 1.244, 1.799),
  c1 = r4(rnorm(12, 10.0, 0.30)),
  c2 = r4(rnorm(15, 9.7, 0.55)),
  d1 = r4(rnorm(60, 5.0, 0.20)),
  d2 = r4(rnorm(55, 4.93, 0.25)),
  e1 = r4(rlnorm(120, log(3), 0.05)),
  e2 = r4(rlnorm(100, log(3.02), 0.07)),
  tie1 = round(rnorm(20, 2.00, 0.03), 2),
  tie2 = round(rnorm(18, 1.98, 0.03), 2),
  skew = r4(1 + rexp(25, 4)),
  tiny = c(1.2, 1.5, 3.1),
  flat = c(4.0, 4.0, 4.0, 4.0, 4.0),
  bimod = r4(c(rnorm(10, 1.00, 0.01), rnorm(10, 1.08, 0.01))),
  warm = r4(2 + 0.3 * exp(-(0:29) / 4) + rnorm(30, 0, 0.01)),
  noise = r4(2 + rnorm(30, 0, 0.01)),
  warmtie = round(1.5 + 0.05 * exp(-(0:39) / 8) + rnorm(40, 0, 0.004), 2)
)
out <- do.call(rbind, lapply(names(samples), function(nm)
  data.frame(sample = nm, value = sprintf("%.4f", samples[[nm]]))))
write.csv(out, "data/samples.csv", row.names = FALSE, quote = FALSE)

# Balanced 3-level data (build > execution > iteration) with positive variance
# components, for the Kalibera-Jones estimators vs lme4 REML.
kj <- function(id, nb, ne, ni, sb, se, si, mu) {
  b <- rep(rnorm(nb, 0, sb), each = ne * ni)
  e <- rep(rnorm(nb * ne, 0, se), each = ni)
  data.frame(dataset = id, build = rep(seq_len(nb), each = ne * ni),
             execution = rep(rep(seq_len(ne), each = ni), nb),
             iteration = rep(seq_len(ni), nb * ne),
             value = sprintf("%.6f", mu + b + e + rnorm(nb * ne * ni, 0, si)))
}
kjdata <- rbind(kj("kj1", 8, 4, 5, 0.08, 0.04, 0.02, 2.0),
                kj("kj2", 10, 3, 10, 0.50, 0.20, 0.30, 10.0),
                kj("kj3", 6, 5, 4, 0.02, 0.03, 0.015, 1.0))
write.csv(kjdata, "data/kj_balanced.csv", row.names = FALSE, quote = FALSE)

# Paired two-level data (build > execution) for the paired Fieller interval
# (compute_paired.R): build i of cand and of base ran together and share a
# time effect p_i (interleaved pairs / duet, issue 8); each system adds its own
# build (layout) effect and execution noise. "neg" gives the candidate -p_i
# (systems competing for a shared resource), so the build means correlate
# negatively. Own seed: regenerating this file leaves the ones above alone.
set.seed(20261124)
paired <- function(id, nb, ne, mub, muc, sp, sb, se, sign = 1) {
  p <- rnorm(nb, 0, sp)
  one <- function(system, mu, s) {
    b <- rep(rnorm(nb, 0, sb), each = ne)
    data.frame(dataset = id, system = system, build = rep(seq_len(nb), each = ne),
               execution = rep(seq_len(ne), nb),
               value = sprintf("%.4f", mu + s * rep(p, each = ne) + b + rnorm(nb * ne, 0, se)))
  }
  rbind(one("base", mub, 1), one("cand", muc, sign))
}
pdata <- rbind(paired("pos", 8, 3, 2.0, 1.9, 0.10, 0.02, 0.01),
               paired("neg", 6, 3, 1.0, 0.97, 0.05, 0.01, 0.005, sign = -1),
               paired("mix", 12, 2, 5.0, 5.1, 0.05, 0.05, 0.02))
write.csv(pdata, "data/paired.csv", row.names = FALSE, quote = FALSE)

# Per-execution observations for the noise diagnosis (analysis/noise.hpp): a
# campaign in random order with AR(1) drift (0.8) and a load effect ("mixed": 2
# systems x 6 builds x 5 executions, every covariate, integer migrations with
# ties), and one in build blocks with independent noise and no frequency
# reading ("blocks": 1 system x 8 builds x 4 executions). Own seed, so the
# samples above are unchanged.
set.seed(20261124)
noise_mixed <- local({
  nb <- 6; ne <- 5; n <- 2 * nb * ne
  d <- data.frame(dataset = "mixed", system = rep(0:1, each = nb * ne),
                  build = rep(rep(0:(nb - 1), each = ne), 2))
  d <- d[sample(n), ]
  d$started <- cumsum(runif(n, 0.8, 1.2))
  drift <- as.numeric(arima.sim(list(ar = 0.8), n, sd = 0.01))
  d$load <- round(rexp(n, 3), 3)
  d$padding <- sample(0:4096, n, replace = TRUE)
  d$migrations <- rpois(n, 1)
  d$switches <- rpois(n, 4)
  d$mhz <- sample(c(2400, 2600, 2800), n, replace = TRUE)
  layout <- rnorm(2 * nb, 0, 0.02)[d$system * nb + d$build + 1]
  d$value <- (1 + 0.05 * d$system) * (1 + layout + drift + 0.03 * d$load + rnorm(n, 0, 0.005))
  d
})
noise_blocks <- local({
  nb <- 8; ne <- 4; n <- nb * ne
  d <- data.frame(dataset = "blocks", system = 0, build = rep(0:(nb - 1), each = ne))
  d$started <- 100 + 2 * seq_len(n)
  d$load <- round(rexp(n, 3), 3)
  d$padding <- sample(0:4096, n, replace = TRUE)
  d$migrations <- rpois(n, 0.7)
  d$switches <- rpois(n, 2)
  d$mhz <- NA
  d$value <- 2 * (1 + rnorm(nb, 0, 0.02)[d$build + 1] + rnorm(n, 0, 0.01))
  d
})
noise <- rbind(noise_mixed, noise_blocks)
noise$started <- sprintf("%.3f", noise$started)
noise$value <- sprintf("%.6f", noise$value)
write.csv(noise[, c("dataset", "system", "build", "started", "value", "load", "padding",
                    "migrations", "switches", "mhz")],
          "data/noise.csv", row.names = FALSE, quote = FALSE, na = "")
