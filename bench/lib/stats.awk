# bench/lib/stats.awk: the statistics of the bench readings, and the CSV
# reader they use.  Loaded before a reading's own program by wb_awk
# (bench/lib/stats.sh); POSIX awk (mawk, gawk).
#
# CSV files (bench/lib/report.sh writes them): '#' lines first (the
# provenance), then a header line, then one row per line, fields quoted
# where they hold a comma, a quote or a newline.  In a reading:
#
#   row() && col("value") == "0" { x[col("round")] = num("tps") }
#
# row() is false on comment and header lines and reads the header of each
# file (a rule may call it again on the same line); col(NAME) is the field of that column in the current row (a string,
# "" when empty), num(NAME) the same as a number.  The files read may differ
# in their columns.

function csv_split(s, f,    n, i, c, q, fld) {
	delete f
	if (index(s, "\"") == 0)
		return split(s, f, ",")
	n = 0; fld = ""; q = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q) {
			if (c == "\"") {
				if (substr(s, i + 1, 1) == "\"") { fld = fld c; i++ }
				else q = 0
			} else
				fld = fld c
		} else if (c == "\"")
			q = 1
		else if (c == ",") { f[++n] = fld; fld = "" }
		else
			fld = fld c
	}
	f[++n] = fld
	return n
}

function row(   n, i) {
	if ($0 ~ /^#/ || $0 == "")
		return 0
	if ((FILENAME in HEADER_) && FNR == HEADER_[FILENAME])
		return 0
	n = csv_split($0, ROW_)
	if (!(FILENAME in HEADER_)) {
		HEADER_[FILENAME] = FNR
		for (i = 1; i <= n; i++) {
			COL_[FILENAME, ROW_[i]] = i
			NAME_[FILENAME, i] = ROW_[i]
		}
		return 0
	}
	return 1
}

function col(name) {
	if (!((FILENAME, name) in COL_)) {
		printf "stats.awk: no column %s in %s\n", name, FILENAME > "/dev/stderr"
		exit 2
	}
	return ROW_[COL_[FILENAME, name]]
}

function num(name) { return col(name) + 0 }

# --- one sample x[1..n]

# sorts x[1..n] in place, numerically
function sortn(x, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = x[i]
		for (j = i - 1; j >= 1 && x[j] + 0 > t + 0; j--)
			x[j + 1] = x[j]
		x[j + 1] = t
	}
}

function median(x, n,    y, i) {
	if (n < 1) return ""
	for (i = 1; i <= n; i++) y[i] = x[i] + 0
	sortn(y, n)
	return (n % 2) ? y[(n + 1) / 2] : (y[n / 2] + y[n / 2 + 1]) / 2
}

# nearest rank: the smallest value with at least a share p of the sample at or below it
function quantile(x, n, p,    y, i) {
	if (n < 1) return ""
	for (i = 1; i <= n; i++) y[i] = x[i] + 0
	sortn(y, n)
	i = int(p * n + 0.999999)
	if (i < 1) i = 1
	return y[i]
}

# the median of x[key, 1..n] (a sample kept per key in one array)
function median_at(x, key, n,    y, i) {
	for (i = 1; i <= n; i++) y[i] = x[key, i]
	return median(y, n)
}

function mean(x, n,    i, s) {
	if (n < 1) return ""
	for (i = 1; i <= n; i++) s += x[i]
	return s / n
}

# the geometric mean of x[1..n]'s figures above 0 ("" when none is)
function gmean(x, n,    i, k, s) {
	for (i = 1; i <= n; i++)
		if (x[i] > 0) { k++; s += log(x[i]) }
	return k ? exp(s / k) : ""
}

function stddev(x, n,    i, m, s) {
	if (n < 2) return ""
	m = mean(x, n)
	for (i = 1; i <= n; i++) s += (x[i] - m) ^ 2
	return sqrt(s / (n - 1))
}

function minv(x, n,    i, m) {
	if (n < 1) return ""
	m = x[1] + 0
	for (i = 2; i <= n; i++) if (x[i] + 0 < m) m = x[i] + 0
	return m
}

function maxv(x, n,    i, m) {
	if (n < 1) return ""
	m = x[1] + 0
	for (i = 2; i <= n; i++) if (x[i] + 0 > m) m = x[i] + 0
	return m
}

# The 97.5% quantile of Student's t with df degrees of freedom, as the
# extension's walpressure._t975: exact to three decimals up to 30, then the
# Cornish-Fisher expansion.
function t975(df,    t) {
	if (df < 1) return ""
	if (df <= 30) {
		split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
		      "2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 " \
		      "2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
		return t[int(df)] + 0
	}
	return 1.959964 + 2.37224 / df + 2.82217 / (df * df)
}

# the half width of the 95% t interval of the mean of x[1..n] ("" below 2)
function ci_half(x, n) {
	if (n < 2) return ""
	return t975(n - 1) * stddev(x, n) / sqrt(n)
}

# The mean of x[1..n] and its 95% t interval: S["n"], S["mean"], S["lo"],
# S["hi"] ("" below 2), S["median"], S["min"], S["max"].
function summary(x, n, S,    h) {
	delete S
	S["n"] = n; S["mean"] = mean(x, n); S["median"] = median(x, n)
	S["min"] = minv(x, n); S["max"] = maxv(x, n)
	h = ci_half(x, n)
	S["lo"] = (h == "") ? "" : S["mean"] - h
	S["hi"] = (h == "") ? "" : S["mean"] + h
	return n
}

# --- groups pooled: pg_stat_statements' figures of a statement over steps

# pool_add(P, k, calls, mean, sd): a group of calls (their mean and their
# population stddev, as pg_stat_statements keeps them) added to pool k;
# pool_mean(P, k) and pool_sd(P, k): every call's mean and population
# stddev ("" for an empty pool), as if the calls were one sample
function pool_add(P, k, c, m, sd) {
	P[k, "n"] += c; P[k, "s"] += c * m; P[k, "q"] += c * (sd ^ 2 + m ^ 2)
}

function pool_mean(P, k) {
	return (P[k, "n"] > 0) ? P[k, "s"] / P[k, "n"] : ""
}

function pool_sd(P, k,    mu) {
	if (!(P[k, "n"] > 0)) return ""
	mu = pool_mean(P, k)
	return sqrt(P[k, "q"] / P[k, "n"] - mu ^ 2)
}

# --- a value against its baseline, paired by round

# The paired ratio of a value's figure to its baseline's, taken per round
# (both measured in the same interleaved round, so the drift between
# rounds cancels): a[k] / b[k] for every key k in both with both > 0.
# R["n"] rounds; R["gm"] the geometric mean of the ratios; R["lo"], R["hi"]
# its 95% interval, exp of the t interval of the mean of the log ratios (""
# with one round); R["median"], R["min"], R["max"] of the ratios.  Kalibera
# and Jones, "Rigorous Benchmarking in Reasonable Time" (ISMM 2013).
function paired(a, b, R,    k, n, l, r, m, h) {
	delete R
	n = 0
	for (k in a)
		if ((k in b) && a[k] > 0 && b[k] > 0) {
			n++
			r[n] = a[k] / b[k]
			l[n] = log(r[n])
		}
	R["n"] = n
	if (n == 0) {
		R["gm"] = R["lo"] = R["hi"] = R["median"] = R["min"] = R["max"] = ""
		return 0
	}
	m = mean(l, n)
	R["gm"] = exp(m)
	h = ci_half(l, n)
	R["lo"] = (h == "") ? "" : exp(m - h)
	R["hi"] = (h == "") ? "" : exp(m + h)
	R["median"] = median(r, n); R["min"] = minv(r, n); R["max"] = maxv(r, n)
	return n
}

# What R's interval says of the ratio: "above 1", "below 1", "1 inside
# the interval", "no interval (one round)", "no figures".
function paired_verdict(R) {
	if (R["n"] == 0) return "no figures"
	if (R["lo"] == "") return "no interval (one round)"
	if (R["lo"] + 0 > 1) return "above 1"
	if (R["hi"] + 0 < 1) return "below 1"
	return "1 inside the interval"
}

# R's interval against a margin of m% each way, as _decide reads one:
# "within" (the whole interval between 1 / (1 + m/100) and 1 + m/100:
# _decide's equivalent, unless the interval also excludes 1, which _decide
# reads first as faster or slower), "beyond" (the whole interval outside them), "across"
# (the interval reaches over a bound: undecided at this margin), "no
# interval (one round)", "no figures".
function paired_margin(R, m,    b) {
	if (R["n"] == 0) return "no figures"
	if (R["lo"] == "") return "no interval (one round)"
	b = 1 + m / 100
	if (log(R["lo"]) >= -log(b) && log(R["hi"]) <= log(b)) return "within"
	if (R["hi"] < 1 / b || R["lo"] > b) return "beyond"
	return "across"
}

# R (paired) or S (summary) as "x (lo-hi)" in format f; "x (one round)"
# without an interval.  c is the centre: "gm", "mean" or "median".
function iv(R, c, f) {
	if (R["n"] == 0) return "-"
	if (R["lo"] == "") return sprintf(f " (one round)", R[c])
	return sprintf(f " (" f "-" f ")", R[c], R["lo"], R["hi"])
}

# is x inside R's interval (false without one)
function inside(x, R) {
	return R["lo"] != "" && x + 0 >= R["lo"] + 0 && x + 0 <= R["hi"] + 0
}

# a against b as a signed percentage: "+4.2%"
function pct(a, b) {
	return (b == 0 || a == "" || b == "") ? "-" : sprintf("%+.1f%%", 100 * (a / b - 1))
}

function abs(x) { return x < 0 ? -x : x }

# --- a share: x of n trials

# P(X <= x) for X binomial(n, p), summed in logs (no underflow for large n)
function binom_cdf(x, n, p,    i, lt, m, s, t) {
	if (x < 0) return 0
	if (x >= n) return 1
	if (p <= 0) return 1
	if (p >= 1) return 0
	lt = n * log(1 - p)
	m = lt
	for (i = 0; i < x; i++) {
		lt += log((n - i) / (i + 1)) + log(p / (1 - p))
		t[i + 1] = lt
		if (lt > m) m = lt
	}
	t[0] = n * log(1 - p)
	for (i = 0; i <= x; i++) s += exp(t[i] - m)
	return exp(m) * s
}

# The 95% interval of a share of x in n (Clopper-Pearson, exact: each
# bound the p at which x or a more extreme count has probability 2.5%):
# B["lo"], B["hi"]; B["p"] = x / n.
function binom_ci(x, n, B,    a, b, i, mid) {
	delete B
	B["p"] = (n > 0) ? x / n : ""
	if (n <= 0) { B["lo"] = B["hi"] = ""; return }
	if (x == 0) B["lo"] = 0
	else {
		a = 0; b = 1
		for (i = 0; i < 60; i++) { mid = (a + b) / 2; if (1 - binom_cdf(x - 1, n, mid) < 0.025) a = mid; else b = mid }
		B["lo"] = (a + b) / 2
	}
	if (x == n) B["hi"] = 1
	else {
		a = 0; b = 1
		for (i = 0; i < 60; i++) { mid = (a + b) / 2; if (binom_cdf(x, n, mid) > 0.025) a = mid; else b = mid }
		B["hi"] = (a + b) / 2
	}
}

# x, or "-" when it is empty (a NULL, a figure not measured)
function or_dash(x) { return (x == "") ? "-" : x }

# --- fidelity to a seed article: one definition for every seed script
# (docs/benchmarks/fidelity.md; bench/fidelity-table gathers the lines)
#
# A table of an article is judged on its effects.  An effect: the article's
# figure a; run_sweep's R, the paired ratio per round (paired(),
# sweep_paired(): R["gm"], R["lo"], R["hi"]), or for a figure that is a
# level (a rate, a share) its own interval over the rounds (summary()
# gives S["mean"] etc.; copy it to R["gm"], R["lo"], R["hi"]); pgbench by
# hand's paired ratio (or level) h, "" when not measured; ref: the figure of
# no effect (1 for a ratio), "" for a level that has no direction.  An
# article's ratio within +-FID_MARGIN % of ref (2, as
# walpressure.equivalence_margin) is read as no effect: what it reports is
# the noise of its own runs, not a direction: an interval that holds ref
# agrees with it (and one beyond ref on its side agrees in direction).
#
#   fid_effect(F, name, a, R, h, ref)  one effect of the table
#   fid_order(F, ok, what)             the table's order or shape (the
#                                      values' order, where a peak is)
#                                      agrees (ok) or not
#   fid_not_run(F, why)                the article's condition could not
#                                      be met here
#   fid_status(F)                      the table's status:
#     reproduced      every effect: a inside R's 95% interval, h inside it
#                     too, and R shows a's direction (its interval lies on
#                     a's side of ref; where a is ref, it holds ref); every
#                     order agrees
#     shape only      every direction and every order agree; some a or h
#                     lies outside the interval
#     not reproduced  a direction differs or is not shown (the interval
#                     holds ref where a is not ref, or lies on the other
#                     side), or an order differs
#     not run         fid_not_run was called
#   fid_why(F)                         what decided it, in words
#   fid_line(F, seed, table, summary)  the line bench/fidelity-table reads:
#                                      "fidelity: SEED | TABLE | STATUS | SUMMARY"
#   fid_line_on(F, disk, ...)          the same on another disk model:
#                                      "fidelity on DISK: SEED | TABLE | ..."
function fid_effect(F, name, a, R, h, ref,    k, dir, ins, hin, small, holds, lo, hi) {
	k = ++F["n"]
	F["name", k] = name
	if (R["lo"] == "" || R["hi"] == "") {
		F["dir_bad"]++
		F["why"] = F["why"] (F["why"] == "" ? "" : "; ") name ": run_sweep has no interval"
		return
	}
	# numbers, whatever the CSV reader gave (a quoted row's fields are strings)
	lo = R["lo"] + 0; hi = R["hi"] + 0; a += 0
	if (h != "") h += 0
	if (ref != "") ref += 0
	ins = (a >= lo && a <= hi)
	hin = (h != "" && h >= lo && h <= hi)
	if (FID_MARGIN == "") FID_MARGIN = 2
	small = (ref != "") && (a == ref || (ref > 0 && a > 0 && abs(log(a / ref)) <= log(1 + FID_MARGIN / 100)))
	holds = (ref != "") && (lo <= ref && hi >= ref)
	if (ref == "")
		dir = 1
	else if (holds)
		dir = small
	else
		dir = (lo > ref) ? (a > ref) : (a < ref)
	if (!dir) {
		F["dir_bad"]++
		F["why"] = F["why"] (F["why"] == "" ? "" : "; ") name ": " \
			(holds ? "the direction is not shown (the interval " fid_num(R["lo"]) "-" fid_num(R["hi"]) " holds " ref ", the article " fid_num(a) ")" : \
			 (a == ref) ? "run_sweep's interval " fid_num(R["lo"]) "-" fid_num(R["hi"]) " excludes " ref " where the article has no effect" : \
			 "the direction differs (" fid_num(R["gm"]) ", interval " fid_num(R["lo"]) "-" fid_num(R["hi"]) "; the article " fid_num(a) ")")
	}
	if (!ins || !hin) {
		F["size_bad"]++
		if (dir)
			F["why"] = F["why"] (F["why"] == "" ? "" : "; ") name ": " \
				(!ins ? "the article's " fid_num(a) " " (a < lo ? "below" : "above") " the interval " fid_num(R["lo"]) "-" fid_num(R["hi"]) : "") \
				(!ins && !hin ? ", " : "") \
				(!hin ? (h == "" ? "no pgbench by hand" : "by hand's " fid_num(h) " outside it") : "")
	}
}

function fid_order(F, ok, what) {
	if (!ok) {
		F["order_bad"]++
		F["why"] = F["why"] (F["why"] == "" ? "" : "; ") "the order differs: " what
	}
}

function fid_not_run(F, why) {
	F["not_run"] = why
}

function fid_status(F) {
	if (F["not_run"] != "") return "not run"
	if (F["dir_bad"] || F["order_bad"] || !F["n"]) return "not reproduced"
	if (F["size_bad"]) return "shape only"
	return "reproduced"
}

function fid_why(F) {
	if (F["not_run"] != "") return F["not_run"]
	if (!F["n"]) return "no effect measured"
	return (F["why"] == "") ? "every effect inside run_sweep's 95% interval with by hand's, in the article's direction and order" : F["why"]
}

function fid_num(x) {
	if (x == "") return "-"
	x += 0
	return (x >= 100) ? sprintf("%.0f", x) : (x >= 10) ? sprintf("%.1f", x) : sprintf("%.3g", x)
}

function fid_line(F, seed, table, text) {
	printf "fidelity: %s | %s | %s | %s\n", seed, table, fid_status(F), text
}

# The same table measured on another disk model than the seed script's
# (bench/disk-models: the paced disk): "fidelity on DISK: SEED | TABLE |
# STATUS | SUMMARY", TABLE the seed script's own words, which
# bench/fidelity-table shows beside that script's row.
function fid_line_on(F, disk, seed, table, text) {
	printf "fidelity on %s: %s | %s | %s | %s\n", disk, seed, table, fid_status(F), text
}

# --- run_sweep's steps (steps.csv, as wb_csv_sweeps writes it)

# In a rule over steps.csv: keep the figure fig (a column: tps, rows_per_s,
# latency_p99_ms, ...) of the current step if it counts (not discarded).
function steps_row(fig) {
	if (col("discarded") == "" && col(fig) != "")
		STEP_[fig, col("sweep_id"), col("value_pos"), col("repeat")] = num(fig)
}

# The paired ratio (see paired) of value_pos p against value_pos b in sweep
# s, figure fig, per repeat: run_sweep interleaves the values in each
# repeat, so a repeat is a round.
function sweep_paired(fig, s, p, b, R,    k, x, a, c) {
	for (k in STEP_) {
		split(k, x, SUBSEP)
		if (x[1] == fig && x[2] == s) {
			if (x[3] == p) a[x[4]] = STEP_[k]
			if (x[3] == b) c[x[4]] = STEP_[k]
		}
	}
	return paired(a, c, R)
}
