"""The command line's parser is built with the command a call runs alone (issue 33: building
all twelve cost every call a few milliseconds). The rule: the parser of one command reads
that command's words exactly as the parser of every command does, and a word that names no
command (or help, or nothing) gets the parser of every command."""

from __future__ import annotations

import pytest

from rulesengine import arguments, cli

CALLS = [
    ["dice", "4d6kh3", "--seed", "3"],
    ["dice", "--odds", "3d6", "4d6kh3", "--at-least", "--json"],
    ["--no-cache", "dice", "1d20 + b", "--odds", "b=0..5"],
    ["odds", "gurps-4e", "success_roll", "skill=12", "--json", "--no-cache"],
    ["validate", "--strict", "--format", "json", "rulesets/"],
    ["schema", "-o", "x.json"],
    ["new", "mine", "--from", "gurps-4e", "--force"],
    ["list", "--json"],
    ["show", "gurps-4e", "success_roll"],
    ["export", "gurps-4e"],
    ["roll", "gurps-4e", "success_roll", "skill=12", "--seed", "1", "--json"],
    ["odds", "rps", "resisted", "party1.skill=8", "party2.skill=6", "--exact", "--at-least", "3,4"],
    ["odds", "gurps-4e", "success_roll", "skill=3..18", "--csv", "--max-states", "1000"],
    ["serve", "--stdio", "--max-states", "5000"],
    ["docs", "limits", "--path"],
    ["--version"],
]


def test_every_command_is_built_by_one_function_of_the_parser():
    assert list(arguments.COMMANDS) == list(arguments.build_parser()._subparsers._group_actions[0].choices)
    assert set(arguments.COMMANDS) == set(cli.COMMANDS)


@pytest.mark.parametrize("words", CALLS, ids=" ".join)
def test_the_parser_of_one_command_reads_its_words_as_the_parser_of_every_command(words):
    only = arguments.command_word(words)
    assert only == next((w for w in words if not w.startswith("-")), None)
    assert vars(arguments.build_parser(only).parse_known_args(words)[0]) == \
        vars(arguments.build_parser().parse_known_args(words)[0])


@pytest.mark.parametrize("words", [["bogus"], ["-h"], [], ["--no-cache", "--help"], ["--no-c", "odds"]])
def test_a_word_that_names_no_command_gets_the_parser_of_every_command(words):
    assert arguments.command_word(words) is None


@pytest.mark.parametrize("words", [["--no-cache", "list"], ["list", "--no-cache"],
                                   ["odds", "gurps-4e", "success_roll", "skill=12", "--json", "--no-cache"]])
def test_no_cache_is_read_before_the_command_or_after_it(words):
    """An outside author wrote ``odds … --json --no-cache`` and got "unrecognized arguments"."""
    assert arguments.build_parser(arguments.command_word(words)).parse_args(words).no_cache is True


def test_no_cache_before_the_command_is_not_undone_by_the_command():
    args = arguments.build_parser("list").parse_args(["--no-cache", "list"])
    assert args.no_cache is True
    assert arguments.build_parser("list").parse_args(["list"]).no_cache is False
