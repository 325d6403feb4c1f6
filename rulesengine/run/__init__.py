"""Running a ruleset model: checks and procedures, rolled (a sampled result with a trace) or
as exact odds, both through the one evaluator of :mod:`rulesengine.dice`."""
