"""Game records with headers and comments: the text form a person reads and edits."""

from __future__ import annotations

import attrs
import pytest
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import rummylib as rl
from rummylib.records import (
    GameRecord,
    RecordHeaders,
    format_record,
    from_json,
    load_record,
    parse_record,
    replay,
    ruleset_fingerprint,
    save_record,
    to_json,
)
from rummylib.testing import rulesets

HEADERS = RecordHeaders(
    event="Club night", site="Kraków", date="2026.12.01", round="3", result="Ann 0, Bob 87", tags={"Annotator": "Ewa"}
)


def _played(rules: rl.Ruleset, players: tuple[str, ...], seed: int, steps: int) -> tuple[rl.Action, ...]:
    state = rl.new_game(rules, players, seed=seed)
    actions = []
    for i in range(steps):
        legal = list(rl.legal_actions(state))
        if not legal:
            break
        action = legal[(seed + 7 * i) % len(legal)]
        actions.append(action)
        state = rl.apply(state, action)
    return tuple(actions)


def test_a_record_reads_like_pgn() -> None:
    actions = _played(rl.REMIK, ("Ann", "Bob"), 5, 6)
    rec = GameRecord(rl.REMIK, ("Ann", "Bob"), 5, 0, actions, HEADERS, {0: "Ann opens the game", 2: "a\nlong note"})
    text = format_record(rec)
    lines = text.splitlines()
    assert lines[:4] == ["# rummylib game record", '[Event "Club night"]', '[Site "Kraków"]', '[Date "2026.12.01"]']
    assert '[Players ["Ann", "Bob"]]' in lines and "[Seed 5]" in lines and '[Rules "remik"]' in lines
    assert f'[Fingerprint "{ruleset_fingerprint(rl.REMIK)}"]' in lines and '[Annotator "Ewa"]' in lines
    assert not any(line.startswith("[Rule.") for line in lines)  # a preset: no rule is repeated
    assert lines[lines.index("# round 1") + 1].endswith(" ; Ann opens the game")
    assert "; long note" in lines
    assert parse_record(text) == rec
    assert from_json(to_json(rec), GameRecord) == rec


def test_a_house_variant_lists_only_what_differs() -> None:
    house = attrs.evolve(rl.REMIK, jokers=6, joker_penalty=50, melds_per_turn=2)
    text = format_record(GameRecord(house, 3, seed=1))
    assert sorted(line for line in text.splitlines() if line.startswith("[Rule.")) == [
        "[Rule.joker_penalty 50]",
        "[Rule.jokers 6]",
        "[Rule.melds_per_turn 2]",
    ]
    assert parse_record(text).rules == house


_names = st.text(st.characters(codec="utf-8"), max_size=12)
_opt = st.none() | _names
_tag_names = st.from_regex(r"\A[A-Z][a-z]{1,8}\Z").filter(
    lambda n: (
        n
        not in {"Event", "Site", "Date", "Round", "Result", "Players", "Rules", "Fingerprint", "Seed", "Dealer", "Rule"}
    )
)


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    rules = draw(rulesets())
    n = draw(st.integers(rules.min_players, min(rules.max_players, 4)))
    players = tuple(draw(st.lists(_names, min_size=n, max_size=n)))
    seed = draw(st.integers(0, 2**128) | st.text(max_size=10))
    actions = _played(rules, players, draw(st.integers(0, 2**32)), draw(st.integers(0, 12)))
    # The actions are legal in a game of another seed: a record checks their form, replay their legality.
    headers = RecordHeaders(
        event=draw(_opt), site=draw(_opt), date=draw(_opt), round=draw(_opt), result=draw(_opt),
        tags=draw(st.dictionaries(_tag_names, _names, max_size=3)),
    )  # fmt: skip
    comment_text = st.text(min_size=1, max_size=30).filter(lambda t: t.strip())
    comments = draw(st.dictionaries(st.integers(0, max(0, len(actions) - 1)), comment_text, max_size=len(actions)))
    return GameRecord(rules, players, seed, draw(st.integers(0, n - 1)), actions, headers, comments)


@settings(max_examples=examples(40), deadline=None)
@given(records())
def test_text_and_json_round_trip(rec: GameRecord) -> None:
    assert parse_record(format_record(rec)) == rec
    assert from_json(to_json(rec), GameRecord) == rec


def test_comments_are_kept_line_by_line_stripped() -> None:
    rec = GameRecord(rl.STRAIGHT, 2, seed=1, actions=(rl.DrawStock(),), comments={0: "  one \n\n two  \n"})
    assert rec.comment(0) == "one\n\ntwo" and rec.comment(1) is None


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"comments": {1: "no such action"}}, "comments[1]"),
        ({"comments": {0: "   "}}, "comments[0]"),
        ({"comments": {-1: "x"}}, "comments"),
        ({"headers": "Club"}, "headers"),
    ],
)
def test_bad_headers_and_comments_are_refused(kwargs: dict[str, object], path: str) -> None:
    with pytest.raises(rl.InvalidStateError) as caught:
        GameRecord(rl.STRAIGHT, 2, seed=1, actions=(rl.DrawStock(),), **kwargs)  # type: ignore[arg-type]
    assert caught.value.path == path


@pytest.mark.parametrize("name", ["1x", "a b", "Rule", "Players", "Event", "x" * 41])
def test_bad_tag_names_are_refused(name: str) -> None:
    with pytest.raises(rl.InvalidStateError) as caught:
        RecordHeaders(tags={name: "v"})
    assert caught.value.path.startswith("tags")


def test_replay_names_the_game_of_the_first_illegal_action() -> None:
    rec = GameRecord(rl.STRAIGHT, ("Ann", "Bob"), seed=7, actions=(rl.DrawStock(), rl.DrawStock()), headers=HEADERS)
    with pytest.raises(rl.IllegalActionError) as caught:
        replay(rec)
    assert str(caught.value).startswith("Club night, round 3, 2026.12.01, Kraków: action 1 (draw): ")
    assert caught.value.fields["index"] == 1


# --- hand-edited files ------------------------------------------------------------------------

_GOOD = format_record(GameRecord(rl.REMIK, ("Ann", "Bob"), 5, 0, _played(rl.REMIK, ("Ann", "Bob"), 5, 4), HEADERS))


def _edit(old: str, new: str) -> str:
    assert old in _GOOD
    return _GOOD.replace(old, new, 1)


def _line_of(text: str, needle: str) -> str:
    return f"line {next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)}"


@pytest.mark.parametrize(
    ("old", "new", "needle", "reason"),
    [
        ('[Site "Kraków"]', "[Site Kraków]", "[Site", rl.StateReason.BAD_SYNTAX),  # unquoted string
        ('[Site "Kraków"]', '[Site "Kraków"', "[Site", rl.StateReason.BAD_SYNTAX),  # no closing bracket
        ('[Site "Kraków"]', '[Event "again"]', "again", rl.StateReason.BAD_VALUE),  # a header twice
        ("[Seed 5]", "[Seed true]", "[Seed", rl.StateReason.WRONG_TYPE),
        ("[Dealer 0]", "[Dealer 2]", "[Dealer", rl.StateReason.BAD_VALUE),  # two players
        ('[Players ["Ann", "Bob"]]', '[Players ["Ann"]]', "[Players", rl.StateReason.INCONSISTENT),
        ('[Rules "remik"]', '[Rules "remik"]\n[Rule.jokers "six"]', "Rule.jokers", rl.StateReason.WRONG_TYPE),
        ('[Rules "remik"]', '[Rules "remik"]\n[Rule.colour 3]', "Rule.colour", rl.StateReason.UNKNOWN_FIELD),
        ('[Rules "remik"]', '[Rules "house"]', "[Rules", rl.StateReason.MISSING_FIELD),  # no preset: all fields
        ("# round 1\n", "# round 1\ndiscrad KS\n", "discrad", rl.StateReason.BAD_SYNTAX),
        ("# round 1\n", "# round 1\n; about nothing\n", "about nothing", rl.StateReason.BAD_SYNTAX),
        ("# round 1\n", '# round 1\ndraw\n[Event "late"]\n', "late", rl.StateReason.BAD_SYNTAX),
        ("# round 1\n", "# round 1\ndiscard KX\n", "KX", rl.StateReason.BAD_CARD),
    ],
)
def test_bad_hand_edits_name_their_line(old: str, new: str, needle: str, reason: rl.StateReason) -> None:
    text = _edit(old, new)
    with pytest.raises(rl.InvalidStateError) as caught:
        parse_record(text)
    assert caught.value.reason is reason
    assert caught.value.path == _line_of(text, needle), str(caught.value)
    assert str(caught.value).startswith(f"{caught.value.path}: ")


def test_an_edited_rule_with_a_stale_fingerprint_is_refused() -> None:  # the fingerprint guards the rules
    text = _edit('[Rules "remik"]', '[Rules "remik"]\n[Rule.jokers 6]')
    with pytest.raises(rl.RulesetMismatchError) as caught:
        parse_record(text)
    assert caught.value.reason is rl.StateReason.RULESET_MISMATCH
    assert caught.value.path == _line_of(text, "[Fingerprint")
    assert caught.value.expected == ruleset_fingerprint(attrs.evolve(rl.REMIK, jokers=6))
    without = "\n".join(line for line in text.splitlines() if not line.startswith("[Fingerprint"))
    assert parse_record(without).rules.jokers == 6  # dropping the fingerprint accepts the edit


def test_a_hand_written_record_without_optional_headers() -> None:
    text = '[Players ["Ann", "Bob"]]\n[Seed 3]\n[Rules "straight"]\n\ndraw ; first\ndiscard KS\n'
    rec = parse_record(text)
    assert rec.dealer == 0 and rec.headers == RecordHeaders() and rec.comments == ((0, "first"),)


def test_old_files_with_a_json_header_still_load() -> None:
    from rummylib.records._record import format_record as format_legacy

    rec = GameRecord(rl.STRAIGHT, ("Ann", "Bob"), seed=3, actions=(rl.DrawStock(),))
    assert parse_record(format_legacy(rec)) == rec


def test_files(tmp_path: object) -> None:
    import pathlib

    assert isinstance(tmp_path, pathlib.Path)
    rec = GameRecord(rl.REMIK, ("Ann", "Bob"), 5, 0, _played(rl.REMIK, ("Ann", "Bob"), 5, 4), HEADERS, {1: "x"})
    for name in ("g.txt", "g.json"):
        save_record(rec, tmp_path / name)
        assert load_record(tmp_path / name) == rec
    assert (tmp_path / "g.txt").read_text(encoding="utf-8").startswith("# rummylib game record\n[Event")


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_any_edit_reads_or_raises_a_typed_error(data: st.DataObject) -> None:
    lines = _GOOD.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    edit = data.draw(st.sampled_from(["delete", "duplicate", "replace", "insert"]))
    noise = data.draw(st.text(alphabet='[]{}"\\;#:=.,|0123456789 abcJKSHDC\t\u2028', max_size=30))
    if edit == "delete":
        del lines[i]
    elif edit == "duplicate":
        lines.insert(i, lines[i])
    elif edit == "replace":
        cut = data.draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:cut] + noise + lines[i][cut:]
    else:
        lines.insert(i, noise)
    try:
        rec = parse_record("\n".join(lines))
    except rl.InvalidStateError as exc:
        assert str(exc)
    else:
        assert parse_record(format_record(rec)) == rec
