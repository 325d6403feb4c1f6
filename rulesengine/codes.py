"""Every diagnostic code once: its constant, the error class that raises it, and its meaning.

``docs/errors.md`` documents each code and ``tests/test_codes.py`` keeps the two in step:
every code in the table is in the docs and the other way round, every code is raised by
the one class named here, and no module spells a code as a bare string. Modules import the
constant they raise.
"""

from __future__ import annotations

from typing import NamedTuple


class Code(NamedTuple):
    code: str
    raised_as: str  # the class in rulesengine.errors that carries it; "warning" for W codes
    meaning: str


# ---- dice expressions: syntax (E1xx) ---------------------------------------------------------
E_DICE_SYNTAX = "E101"
E_BAD_DIE = "E102"
E_BAD_MODIFIER = "E103"
E_CHAINED_COMPARISON = "E104"
E_BAD_CHARACTER = "E105"
# ---- dice expressions: evaluation and limits (E2xx) -------------------------------------------
E_EVAL = "E201"
E_DIVISION_BY_ZERO = "E202"
E_UNKNOWN_VARIABLE = "E203"
E_FACES = "E204"
E_UNKNOWN_FUNCTION = "E205"
E_BAD_COUNT = "E206"
E_LIMIT = "E210"
# ---- reading the YAML file (E3xx) -------------------------------------------------------------
E_YAML_SYNTAX = "E301"
E_TOO_DEEP = "E302"
E_DUPLICATE_KEY = "E303"
E_ALIAS = "E304"
E_TAG = "E305"
E_FILE_TOO_LARGE = "E306"
E_ENCODING = "E307"
E_TAB = "E308"
E_NOT_A_MAPPING = "E309"
E_MULTIPLE_DOCUMENTS = "E310"
E_BAD_KEY = "E311"
E_UNREADABLE = "E312"
# ---- the JSON Schema (E4xx) -------------------------------------------------------------------
E_SCHEMA = "E401"
E_UNKNOWN_KEY = "E402"
E_MISSING_KEY = "E403"
E_BAD_VALUE = "E404"
# ---- the ruleset's meaning (E5xx, W5xx) -------------------------------------------------------
E_EXPRESSION = "E501"
E_UNKNOWN_NAME = "E502"
E_UNKNOWN_REFERENCE = "E503"
E_DUPLICATE = "E504"
E_BAD_TABLE = "E505"
E_BAD_DEFAULT = "E506"
E_DICE_OUTSIDE_ROLL = "E507"
E_GATE_AFTER_ROLL = "E508"
E_BAD_CHOOSE = "E509"
E_PROCEDURE = "E510"
E_NOT_A_CONDITION = "E511"
E_NO_OUTCOME = "E512"
E_NOT_YES_NO = "E520"
E_NOT_A_NUMBER = "E521"
E_BRANCH_TYPES = "E522"
E_BAD_OPERAND = "E523"
E_UNKNOWN_LITERAL = "E524"
E_NAME_CLASH = "E525"
E_NUMBER_AS_TEXT = "E526"
E_EXAMPLE = "E527"
W_UNREACHABLE = "W501"
W_NO_CATCH_ALL = "W502"
W_UNREACHABLE_OUTCOME = "W503"
W_DEPRECATED_REPORT_NAME = "W504"
W_ACKNOWLEDGED_NOTHING = "W505"
W_DIALECT_READS_OTHERWISE = "W510"
W_SYMBOL_NEVER_READ = "W511"
W_SIGN_AGAINST_SUCCESS = "W512"
# deprecated spellings: warnings for one release (files that loaded keep loading), then errors
W_DIALECT_DROPS = "W513"
W_SYMBOL_ROLL_NUMBER = "W514"
W_LABEL_NOT_ON_DICE = "W515"
# a call that gives what it was given
W_ONE_VALUE_EXTREME = "W516"
# work nothing reads
W_UNREAD_ROLL = "W520"
W_UNREAD_INPUT = "W521"
W_UNREAD_CHOOSE = "W522"
W_TAG_NEVER_SET = "W523"
W_SHADOWED_OUTCOME = "W524"
W_UNREAD_VALUE = "W525"
# ---- inputs, service requests and usage (E6xx, E7xx, E9xx) ------------------------------------
E_INPUT = "E601"
E_USAGE = "E901"
# ---- requests to the service (E7xx) ----------------------------------------------------------
E_REQUEST = "E701"
E_NOT_FOUND = "E702"
E_BODY_TOO_LARGE = "E703"
E_NOT_READY = "E704"
# ---- not a diagnostic: the base class's placeholder, never raised or documented ----------------
E_UNCLASSIFIED = "E000"

CODES: dict[str, Code] = {c.code: c for c in (
    Code(E_DICE_SYNTAX, "DiceSyntaxError", "syntax: something unexpected, or the expression ends too early"),
    Code(E_BAD_DIE, "DiceSyntaxError", "an impossible die"),
    Code(E_BAD_MODIFIER, "DiceSyntaxError", "an unknown or impossible modifier, or a condition not written right "
                                            "after its mark"),
    Code(E_CHAINED_COMPARISON, "DiceSyntaxError", "comparisons chained"),
    Code(E_BAD_CHARACTER, "DiceSyntaxError", "a character the language doesn't use"),
    Code(E_EVAL, "DiceEvalError", "a value of the wrong kind, or a wrong number of arguments"),
    Code(E_DIVISION_BY_ZERO, "DiceEvalError", "division by zero (in exact odds: by any possible outcome)"),
    Code(E_UNKNOWN_VARIABLE, "DiceEvalError", "an unknown name"),
    Code(E_FACES, "DiceEvalError", "faces given for a roll: too few, too many, or impossible"),
    Code(E_UNKNOWN_FUNCTION, "DiceEvalError", "an unknown function"),
    Code(E_BAD_COUNT, "DiceEvalError", "a dice count or number of sides that is negative or not a number"),
    Code(E_LIMIT, "LimitError", "a limit was hit; the message names it"),
    Code(E_YAML_SYNTAX, "LoadError", "invalid YAML syntax"),
    Code(E_TOO_DEEP, "LoadError", "mappings and lists nested more than max_yaml_depth levels"),
    Code(E_DUPLICATE_KEY, "LoadError", "a key repeated in one mapping"),
    Code(E_ALIAS, "LoadError", "too many aliases or alias expansion, an unknown or self-containing alias"),
    Code(E_TAG, "LoadError", "a forbidden tag or a merge key"),
    Code(E_FILE_TOO_LARGE, "LoadError", "the file is larger than max_file_bytes"),
    Code(E_ENCODING, "LoadError", "bytes that are not UTF-8, or control characters YAML forbids"),
    Code(E_TAB, "LoadError", "a tab used for indentation"),
    Code(E_NOT_A_MAPPING, "LoadError", "an empty file, or a top level that is not a mapping"),
    Code(E_MULTIPLE_DOCUMENTS, "LoadError", "more than one YAML document in a file"),
    Code(E_BAD_KEY, "LoadError", "a key that is not text or a whole number"),
    Code(E_UNREADABLE, "LoadError", "the file cannot be read, is not a regular file, or is not named *.yaml/*.yml"),
    Code(E_SCHEMA, "SchemaError", "a value of the wrong type or shape"),
    Code(E_UNKNOWN_KEY, "SchemaError", "a key the format doesn't have"),
    Code(E_MISSING_KEY, "SchemaError", "a required key is missing"),
    Code(E_BAD_VALUE, "SchemaError", "a value not among the allowed ones, out of range, or not a valid name"),
    Code(E_EXPRESSION, "RulesetError", "an expression that does not parse"),
    Code(E_UNKNOWN_NAME, "RulesetError", "a name or function that is not defined where it is used"),
    Code(E_UNKNOWN_REFERENCE, "RulesetError", "a reference to an outcome, table, check or roll that does not exist"),
    Code(E_DUPLICATE, "RulesetError", "two things with one name"),
    Code(E_BAD_TABLE, "RulesetError", "a malformed table"),
    Code(E_BAD_DEFAULT, "RulesetError", "an input default or bound that is out of range or of the wrong type"),
    Code(E_DICE_OUTSIDE_ROLL, "RulesetError", "dice outside a check's roll/rolls"),
    Code(E_GATE_AFTER_ROLL, "RulesetError", "a gate (or secret) that reads the dice"),
    Code(E_BAD_CHOOSE, "RulesetError", "choose from something that is not a roll of the check, or a bad pick"),
    Code(E_PROCEDURE, "RulesetError", "a procedure that is incomplete or cannot be decided"),
    Code(E_NOT_A_CONDITION, "RulesetError", "(when running) a condition that is not true or false"),
    Code(E_NO_OUTCOME, "RulesetError", "(when running) no outcome rule matched"),
    Code(E_NOT_YES_NO, "RulesetError", "a condition whose value is not yes/no"),
    Code(E_NOT_A_NUMBER, "RulesetError", "a result whose value is not a number"),
    Code(E_BRANCH_TYPES, "RulesetError", "if() branches that give different kinds of value"),
    Code(E_BAD_OPERAND, "RulesetError", "an operator or function given a value it cannot take"),
    Code(E_UNKNOWN_LITERAL, "RulesetError", "a text compared with a name that can never be that text"),
    Code(E_NAME_CLASH, "RulesetError", "a name that would hide another name"),
    Code(E_NUMBER_AS_TEXT, "RulesetError", "a number written as text (in quotes) in a table"),
    Code(E_EXAMPLE, "RulesetError", "an example of a check (examples:) that the rules do not give"),
    Code(W_UNREACHABLE, "warning", "an outcome rule after a catch-all can never apply"),
    Code(W_NO_CATCH_ALL, "warning", "every outcome rule has a condition, so a roll may match none"),
    Code(W_UNREACHABLE_OUTCOME, "warning", "an outcome that no input combination tried can reach"),
    Code(W_DEPRECATED_REPORT_NAME, "warning", "deprecated: a reported value named like a key of the rolled "
                                              "result; its value is only under the result's 'report'"),
    Code(W_ACKNOWLEDGED_NOTHING, "warning", "an acknowledged warning (allow:) that does not fire there"),
    Code(W_DIALECT_READS_OTHERWISE, "warning", "a spelling the file's dialect reads otherwise than this language "
                                               "or another dialect does"),
    Code(W_SYMBOL_NEVER_READ, "warning", "a symbol on one face of a declared die that no symbols() call counts "
                                         "and no other face shows"),
    Code(W_SIGN_AGAINST_SUCCESS, "warning", "result_sign gives a result of 0 a sign against its outcome's success"),
    Code(W_DIALECT_DROPS, "warning", "deprecated (an error later): a spelling the file's dialect drops, which "
                                     "without a dialect has a meaning (roll20's cs, cf)"),
    Code(W_SYMBOL_ROLL_NUMBER, "warning", "deprecated (an error later): the number of a roll of symbol dice used "
                                          "as a number: count its symbols with symbols()"),
    Code(W_LABEL_NOT_ON_DICE, "warning", "deprecated (an error later): a label ([text]) after something that is "
                                         "not a dice term, such as a name: roll[0] is roll"),
    Code(W_ONE_VALUE_EXTREME, "warning", "max() or min() of one value, which is that value: max(roll) is the "
                                         "roll's total, not its highest die"),
    Code(W_UNREAD_ROLL, "warning", "a roll that is rolled and never read"),
    Code(W_UNREAD_INPUT, "warning", "an input that nothing reads"),
    Code(W_UNREAD_CHOOSE, "warning", "a choose whose chosen dice no rule reads"),
    Code(W_TAG_NEVER_SET, "warning", "a tag that no input combination can set"),
    Code(W_SHADOWED_OUTCOME, "warning", "an outcome rule that an earlier, broader rule always takes first"),
    Code(W_UNREAD_VALUE, "warning", "a value (let) that is worked out and never read"),
    Code(E_INPUT, "InputError", "an input given to a check or procedure that it can't take"),
    Code(E_REQUEST, "RequestError", "a service request that is not JSON, or a field missing or of the wrong type"),
    Code(E_NOT_FOUND, "RequestError", "a service request for a ruleset, check, procedure or path that does not exist"),
    Code(E_BODY_TOO_LARGE, "RequestError", "a service request larger than the service's body limit"),
    Code(E_NOT_READY, "RequestError", "the service is not ready: its rulesets are loading, or one no longer loads"),
    Code(E_USAGE, "UsageError", "a command-line usage error"),
)}
