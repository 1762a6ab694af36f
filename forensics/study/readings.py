"""Where seed 000 is silent about a study, and how this tool reads it.

*Recomputing a study yourself* describes the two files, the page's figures and the
tolerances, but not every column's name, the JSON the page's figures come in, the
exact form of the confidence sequence or of the bootstrap.  Each gap is one
:class:`~daishi_forensics.score.rubric.Reading` below; ``study audit`` prints those a
study exercised (all of them with ``--format json``, under ``readings``).
"""

from __future__ import annotations

from daishi_forensics.score.rubric import Reading

__all__ = ["READINGS", "READING_KEYS"]

READINGS: tuple[Reading, ...] = (
    Reading(
        "file-columns",
        "The published rules name what each file holds in prose, not the header of each column.",
        "trials.csv: study, trial, arm, arm_label, match, map_seed, spawn_seed, ended, rounds_played, "
        "rounds_planned, resumed_at, metric, value, no_value, pair, pair_out, in_comparison, stopping_rule, "
        "comparison_level, scored_on, scenario, scenario_hash, rubric, analysis, canary. seats.csv: study, trial, "
        "arm, match, seat, name, model, harness, focal, whole_trial, rubric, scored_on, fitness_index, grade, rank, "
        "status, the five dimensions, turns_played, rounds_sat_out, error_turns, spend, the event counts (rests, "
        "looks, moves, gathers, crafts, builds, repairs, trains, trades, attacks, raids, thefts, deposits, "
        "withdrawals, messages, dormancies, recoveries), aggression, credited_trades, commons_share, coverage, "
        "canary. The header must be exactly these, in this order.",
    ),
    Reading(
        "field-forms",
        "The published rules do not say how a yes/no field, a list of arm:reason entries or 'where it was scored' is "
        "written.",
        "yes/no fields read 'yes' or 'no'; pair_out lists arm:reason entries separated by ';'; 'where it was "
        "scored' is the column scored_on, any non-empty text. Numbers are plain decimals (no exponent, no "
        "spaces); an empty field is none, never zero.",
    ),
    Reading(
        "row-numbers",
        "Findings carry row numbers; the published rules do not say how rows are counted.",
        "As a spreadsheet numbers them: the header is row 1, the first record row 2.",
    ),
    Reading(
        "canary",
        "The contamination canary's text is given by the data policy, which the published rules only link to.",
        "The canary is the last column of both files; it must be the same non-empty text on every row of both, "
        "and the page's canary where there is a page.",
    ),
    Reading(
        "page-json",
        "The script reads the page's figures from 'the profile's public JSON', whose form the published rules do not give.",
        "The profile's JSON is served at /u/<handle>?format=json with a 'studies' array; the study's entry (the "
        "one whose 'study' is the id in the address) gives each figure as the page prints it, in the form of the "
        "schema study-page. A study folder holds that entry as study.json.",
    ),
    Reading(
        "recipe",
        "Under the anytime rule the script reads the sequence's tuning constant from 'the study's recipe', whose "
        "form the published rules do not give.",
        "The page names its recipe's address ('recipe'); the recipe is served there with ?format=json in the form "
        "of the schema study-recipe, whose sequenceTuning is the constant ρ. A study folder holds it as "
        "recipe.json.",
    ),
    Reading(
        "not-published",
        "The files answer 409 'with the page's reason'; the published rules do not say how the reason is given.",
        "The 409 answer's JSON 'reason' (or 'error'), else its text, is printed as the reason.",
    ),
    Reading(
        "comparison-level",
        "comparison_level is 'the declared level split across the comparisons against the control'; the split "
        "is not spelled out.",
        "The column holds each comparison's level, the declared level split evenly (Bonferroni): 1 − (1 − "
        "declared) ÷ comparisons. The page gives both; each comparison's intervals, bootstrap and test use the "
        "column's level.",
    ),
    Reading(
        "trial-value",
        "Where the metric is a seat score the published rules do not say how a trial with several focal seats gets one "
        "value.",
        "The mean of its focal seats' scores, added left to right, rounded half up to three decimals on the "
        "double; with one focal seat, that seat's score.",
    ),
    Reading(
        "metric-names",
        "The published rules list the seat-score metrics (Fitness Index, a dimension, rank, survival, map coverage) but not "
        "the names the metric column gives them.",
        "fitness_index, survival, economy, social, adaptation, competitiveness, rank and coverage, each reading "
        "the seats.csv column of that name. Any other name is a metric that is not a seat score: its values are "
        "taken on trust, and its range is the page's.",
    ),
    Reading(
        "interval-cut",
        "Intervals are 'cut to the metric's range'; the range of a paired difference is not given.",
        "A value's interval is kept within the metric's range (0 to 100 for the index and its dimensions, 0 to 1 "
        "for coverage, 1 to the largest field for rank); a paired difference's within ± the range's width. A log "
        "ratio has no bound.",
    ),
    Reading(
        "log-ratio",
        "The published rules mention figures 'on a log ratio' without saying which comparisons read pairs that way.",
        "The page's metric says its scale: 'difference' (the arm's value minus the control's) or 'logRatio' "
        "(ln of the arm's value over the control's, both from the file's three decimals; a pair with a value of "
        "0 or less cannot be read). On a log ratio the exact test runs on each pair's log ratio kept at four "
        "decimals.",
    ),
    Reading(
        "confidence-sequence",
        "The published rules name 'the confidence sequence under the anytime rule' and its tuning constant, not its form.",
        "The asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas (2021): mean ± "
        "σ̂ √(2(nρ² + 1)/(n²ρ²) · ln(√(nρ² + 1)/α)), with σ̂ the sample standard deviation (n − 1), α one minus "
        "the comparison level and ρ the recipe's tuning constant, evaluated at the pairs read; cut to the "
        "range as the t interval is.",
    ),
    Reading(
        "map-interval",
        "'The interval that counts each map once where maps repeat' is not spelled out.",
        "Pairs are grouped by the control's map seed; the interval is the mean paired difference ± the "
        "multiplier × its cluster-robust standard error (each map one cluster, small-sample factor G/(G − 1)), "
        "with Student t at G − 1 degrees of freedom (the confidence sequence at G under the anytime rule), at "
        "the comparison's level. With no repeated map it is withheld (none), as on the page.",
    ),
    Reading(
        "model-interval",
        "A model's interval 'counting each trial once' has no stated level or form.",
        "95%, around the mean over the model's seats: the cluster-robust standard error with each trial (one "
        "match: a trial of one arm) as a cluster, Student t at trials − 1 degrees of freedom, kept within 0 to "
        "100. Guest seats have no model and are left out; so are seats of trials that did not play whole.",
    ),
    Reading(
        "bootstrap",
        "The percentile bootstrap inside the fixed rule's verdict has no stated resample count or seed.",
        "scipy's percentile bootstrap of the mean paired difference at the comparison's level, 9,999 resamples, "
        "numpy's PCG64 generator seeded with the first 8 bytes (big-endian) of SHA-256 of '<study>/<arm>'. The "
        "same files give the same interval; another implementation of the same rule may resample differently, "
        "so a verdict whose bootstrap interval ends within a hair of zero can differ.",
    ),
    Reading(
        "verdict",
        "The verdict's rule is not given.",
        "Fixed rule: 'higher' when the t interval and the bootstrap interval lie wholly above zero and the exact "
        "test's p is at most 1 − the comparison level; 'lower' likewise below zero; else 'inconclusive'. Anytime "
        "rule: the confidence sequence alone, wholly above zero 'higher', wholly below 'lower'. A verdict the "
        "page withholds is none, with the page's reason.",
    ),
    Reading(
        "exact-test",
        "The exact sign-flip test's sidedness and the form of its p are not given.",
        "Two-sided: the share of the 2ⁿ sign assignments whose sum is at least as far from zero as the observed, "
        "counted exactly on the file's thousandths (zeros set aside). The page gives p exactly, as a number; it "
        "must equal this one as a double.",
    ),
    Reading(
        "small-samples",
        "The published rules do not say what a figure is with too few trials.",
        "A mean needs one value, an interval two (two maps for the map interval, two trials for a model's). "
        "Below that the figure is none; none beside the page's none is a check that agrees.",
    ),
    Reading(
        "tolerance-places",
        "'Up to three more where a difference near zero keeps its side of zero' does not say how the places are "
        "found.",
        "A comparison figure is kept at three decimals (four on a log ratio), or at the first of up to three "
        "more places where it does not round to zero; both the recomputed figure and the page's are set at the "
        "finer of their places, rounded half away from zero, and read same within one unit there when they are "
        "on the same side of zero.",
    ),
    Reading(
        "whole-trial",
        "Which no_value reasons mean a trial did not play whole is not listed.",
        "Every reason but 'unmeasured' (a scored trial whose metric was not measured): a trial marked whole has "
        "none of them, a trial not whole has one.",
    ),
    Reading(
        "other-seeds",
        "'Other seeds than the rest of its pair' does not say which seeds are the pair's.",
        "The map and spawn seeds most of the pair's rows share, ties going to the lowest arm's.",
    ),
    Reading(
        "exit-2",
        "The published recompute script exits 2 when it cannot read the study; this tool's table gives 2 to usage errors and "
        "3 to unreadable input.",
        "study audit keeps the script's codes: 2 for a study it cannot read (409, a file missing, malformed "
        "or unreachable, the page malformed or unreachable) as for a usage error; it never exits 3. A study folder "
        "without study.json, given no --page, is read with no page: the files are checked, no figure is compared.",
    ),
)
"""Every reading this tool fixed for study audits."""

READING_KEYS: frozenset[str] = frozenset(r.key for r in READINGS)
