# Golden cases of the censored-data capability (core/verification/censored-fit.ts), computed with
# an independent implementation: R's survival::survreg for the maximum-likelihood fits, and R's
# pnorm/optimize/uniroot for the profile-likelihood lower bound of Ppu.
# Run from this folder:  Rscript censored-fits.R > censored-fits.json && npx prettier --write censored-fits.json
# Made with R 4.2.2 and survival 3.5-3 (Debian bookworm, r-cran-survival). The suite does not
# need R: it reads the committed JSON.
suppressPackageStartupMessages(library(survival))

# A value is a number (exact), "<b" (below the bound b: < LOD / < LOQ) or ">b" (above b:
# > upper limit), all on percent of limit.
set.seed(20261205)
skewed <- round(exp(rnorm(30, log(8), 0.9)), 2)
skewed <- ifelse(skewed < 3, "<3", ifelse(skewed > 60, ">60", as.character(skewed)))
cases <- list(
  list(name = "one below LOQ of four", values = c("10", "<4", "20", "30")),
  list(name = "half below LOQ", values = c("10", "<4", "20", "<6")),
  list(name = "one above the upper limit", values = c("10", "20", "30", ">40")),
  list(name = "left and right censored",
       values = c("5.2", "8.1", "<2", "12.5", "3.3", "<2", "7.7", "15.2", ">60", "9.9")),
  list(name = "skewed, 30 results, LOQ 3 % and upper limit 60 %", values = skewed),
  list(name = "near the limit", values = c("60", "75", "82", "90", ">100", "70", "<50", "88")),
  list(name = "bounds deep in the lower tail", values = c("40", "42", "41", "<0.5", "<0.5", "43")),
  list(name = "a bound far in the upper tail", values = c("1", "2", "1.5", ">300", "1.2")),
  list(name = "most below LOQ", values = c("<5", "<5", "<5", "12", "<5", "7", "<5", "<5"))
)

parse_case <- function(values) {
  kind <- ifelse(startsWith(values, "<"), "below", ifelse(startsWith(values, ">"), "above", "exact"))
  bound <- as.numeric(sub("^[<>]", "", values))
  list(kind = kind, bound = bound)
}

loglik <- function(mu, sigma, y, kind, jacobian) {
  sum(ifelse(kind == "exact", dnorm(y, mu, sigma, log = TRUE),
      ifelse(kind == "below", pnorm(y, mu, sigma, log.p = TRUE),
             pnorm(y, mu, sigma, lower.tail = FALSE, log.p = TRUE)))) - jacobian
}

fit_one <- function(kind, bound, dist) {
  lo <- ifelse(kind == "below", NA, bound)
  hi <- ifelse(kind == "above", NA, bound)
  fit <- survreg(Surv(lo, hi, type = "interval2") ~ 1, dist = dist,
                 control = survreg.control(rel.tolerance = 1e-13, iter.max = 200))
  mu <- unname(coef(fit)[1])
  sigma <- fit$scale
  ll <- fit$loglik[length(fit$loglik)]
  y <- if (dist == "lognormal") log(bound) else bound
  jacobian <- if (dist == "lognormal") sum(y[kind == "exact"]) else 0
  c100 <- if (dist == "lognormal") log(100) else 100
  ppu <- (c100 - mu) / (3 * sigma)
  # Our own log-likelihood must equal survreg's (it includes the lognormal's Jacobian).
  own <- loglik(mu, sigma, y, kind, jacobian)
  stopifnot(abs(own - ll) < 1e-8 * max(1, abs(ll)))
  profile <- function(p) {
    optimize(function(tau) loglik(c100 - 3 * exp(tau) * p, exp(tau), y, kind, jacobian),
             c(log(sigma) - 8, log(sigma) + 8), maximum = TRUE, tol = 1e-12)$objective
  }
  target <- ll - qnorm(0.95)^2 / 2
  width <- 0.1 * max(1, abs(ppu))
  while (profile(ppu - width) > target) width <- width * 2
  lower <- uniroot(function(p) profile(p) - target, c(ppu - width, ppu),
                   tol = 1e-13, maxiter = 1000)$root
  list(mu = mu, sigma = sigma, logLikelihood = ll, ppu = ppu, ppuLower95 = lower)
}

num <- function(x) sprintf("%.17g", x)
str <- function(x) paste0('"', x, '"')
fit_json <- function(f) {
  paste0('{"mu": ', num(f$mu), ', "sigma": ', num(f$sigma), ', "logLikelihood": ',
         num(f$logLikelihood), ', "ppu": ', num(f$ppu), ', "ppuLower95": ', num(f$ppuLower95), '}')
}

case_json <- vapply(cases, function(case) {
  p <- parse_case(case$values)
  normal <- fit_one(p$kind, p$bound, "gaussian")
  lognormal <- fit_one(p$kind, p$bound, "lognormal")
  paste0('    {"name": ', str(case$name), ',\n     "values": [',
         paste(str(case$values), collapse = ", "), '],\n     "normal": ', fit_json(normal),
         ',\n     "lognormal": ', fit_json(lognormal), '}')
}, "")

z <- c(-60, -40, -38.5, -30, -20, -10, -8, -5, -3.3, -2, -1, -0.5, -1e-3, 0, 0.7, 1.5, 3, 5, 8, 10)
tail_json <- paste0('    {"z": ', num(z), ', "logCdf": ', num(pnorm(z, log.p = TRUE)), '}')

cat('{\n  "madeWith": ', str(paste0(R.version.string, ", survival ", packageVersion("survival"))),
    ',\n  "cases": [\n', paste(case_json, collapse = ",\n"), '\n  ],\n  "logNormalCdf": [\n',
    paste(tail_json, collapse = ",\n"), '\n  ]\n}\n', sep = "")
