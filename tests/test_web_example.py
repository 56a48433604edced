"""examples/web: whole games through the HTTP API leak nothing; the page plays in headless Chromium."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import shutil
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import rummylib as rl
from rummylib.events import apply_event, event_from_dict
from rummylib.records import from_dict, parse_action, parse_record, replay, to_dict

_WEB = Path(__file__).resolve().parent.parent / "examples" / "web"
_NS = "{http://www.w3.org/2000/svg}"
_TOKEN = re.compile(r"(?<![A-Za-z0-9=])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")
#: What a joker stands for names a card that need not exist anywhere: not a leak.
_STANDS_FOR = re.compile(r'(?:JK=|data-stands-for=\\?"|standing for )(?:10|[2-9AJQK])[SHDC]')


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rummy_web_server", _WEB / "server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


web = _load()


@pytest.fixture
def server() -> Iterator[Any]:
    srv = web.RummyServer(("127.0.0.1", 0), quiet=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(timeout=10)


def _url(srv: Any, path: str) -> str:
    host, port = srv.server_address[:2]
    return f"http://{host}:{port}{path}"


def _call(srv: Any, path: str, body: object = None, *, raw: bytes | None = None) -> tuple[int, str]:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(_url(srv, path), data=data, method="GET" if data is None else "POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _physical(v: rl.PlayerView) -> set[str]:
    seen = {str(c) for c in v.hand} | {str(c) for c in v.discard}
    return seen | {str(c) for tm in v.table for c in tm.meld.cards}


def _svg_cards(svg: str) -> Counter[str]:
    root = ET.fromstring(svg)
    return Counter(g.attrib["data-card"] for g in root.iter(f"{_NS}g") if g.attrib.get("class") == "card")


def _check_reply(srv: Any, text: str, before: rl.PlayerView | None, seen: set[str]) -> rl.PlayerView:
    """The reply holds the human's view and nothing else: every check of R-H1 we can make from outside."""
    reply = json.loads(text)
    assert set(reply) == {"id", "view", "svg", "legal", "more_legal", "events", "log"}
    state = srv.games.get(reply["id"]).state  # the truth, known only to the server (and this test)
    v = from_dict(reply["view"], rl.PlayerView)
    assert v == rl.view(state, web.HUMAN) and reply["view"] == to_dict(v)
    shown = Counter(str(c) for c in v.hand) + Counter(str(c) for tm in v.table for c in tm.meld.cards)
    if v.top_discard is not None:
        shown[str(v.top_discard)] += 1
    assert _svg_cards(reply["svg"]) == shown
    for doc in reply["events"]:
        event = event_from_dict(doc)
        assert event.viewer == web.HUMAN
        seen |= {str(c) for c in event.discard_added} | {
            str(tm_c) for _, tm in event.table_changes for tm_c in tm.meld.cards
        }
        seen |= {str(c) for c in event.hand_in} | ({str(event.card)} if event.card is not None else set())
        if before is not None:
            before = apply_event(before, event)  # a client following the events arrives at the view
    if before is not None:
        assert before == v
    seen |= _physical(v)
    tokens = set(_TOKEN.findall(_STANDS_FOR.sub("", text)))
    assert tokens <= seen, f"the reply names cards the human never saw: {sorted(tokens - seen)}"
    assert '"hands"' not in text and '"stock"' not in text and '"seed"' not in text
    return v


def _play_whole_game(srv: Any, rules: str, seed: int) -> rl.GameState:
    status, text = _call(srv, "/api/games", {"rules": rules, "seed": seed})
    assert status == 200, text
    seen: set[str] = set()
    v = _check_reply(srv, text, None, seen)
    game_id = json.loads(text)["id"]
    rng = random.Random(seed)
    for _ in range(5000):
        legal = json.loads(text)["legal"]
        if not legal:
            break
        # A weak but quick human: deal on, draw from the stock, throw a random card; the bots go out.
        plain = [a for a in legal if a in ("next", "draw")]
        discards = [a for a in legal if a.startswith("discard")]
        action = plain[0] if plain else rng.choice(discards or legal)
        parse_action(action, v.rules)  # the notation the server offers reads back
        status, text = _call(srv, f"/api/games/{game_id}/actions", {"action": action})
        assert status == 200, text
        v = _check_reply(srv, text, v, seen)
    state = srv.games.get(game_id).state
    assert isinstance(state, rl.GameState) and state.is_over
    status, text = _call(srv, f"/api/games/{game_id}/record")  # once over, the game is a record file
    assert status == 200
    record = parse_record(text)
    assert replay(record)[-1] == state and record.headers.result is not None
    return state


def test_a_whole_remik_game_through_the_api_leaks_nothing(server: Any) -> None:  # R-H1
    state = _play_whole_game(server, "remik", 11)
    assert len(state.results) >= 1 and state.standings.winners


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "seed"), [("straight", 3), ("remik", 12), ("remik", 13)])
def test_more_whole_games(server: Any, rules: str, seed: int) -> None:
    _play_whole_game(server, rules, seed)


def test_bad_requests_get_clear_errors(server: Any) -> None:
    status, text = _call(server, "/api/games", {"seed": 1})
    game = json.loads(text)["id"]
    cases = [
        (f"/api/games/{game}/actions", {"action": "draw"}, 400, "not allowed now"),  # the dealer plays first
        (f"/api/games/{game}/actions", {"action": "discard KX"}, 400, "KX"),
        (f"/api/games/{game}/actions", {"act": "draw"}, 400, "send"),
        (f"/api/games/{'0' * 32}/actions", {"action": "draw"}, 404, "no such game"),
        ("/api/games", {"rules": "gin"}, 400, "gin"),
        ("/api/games", {"seed": -1}, 400, "seed"),
    ]
    for path, body, want, words in cases:
        status, text = _call(server, path, body)
        assert status == want and words in json.loads(text)["error"], (path, body, text)
    status, text = _call(server, f"/api/games/{game}/actions", raw=b"{not json")
    assert status == 400 and "error" in json.loads(text)
    status, text = _call(server, f"/api/games/{game}/actions", raw=b"x" * (web.MAX_BODY + 1))
    assert status == 400
    status, text = _call(server, "/api/nothing")
    assert status == 404
    status, text = _call(server, f"/api/games/{game}")
    assert status == 200 and json.loads(text)["id"] == game
    status, text = _call(server, f"/api/games/{game}/record")
    assert status == 409 and "over" in json.loads(text)["error"]  # it would hold the seed


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.skipif(_chromium() is None, reason="no Chromium (Debian: apt-get install chromium; .ci/run installs it)")
def test_the_page_plays_in_headless_chromium(server: Any) -> None:
    browser = _chromium()
    assert browser is not None
    with tempfile.TemporaryDirectory() as profile:
        command = [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=20000", "--dump-dom", _url(server, "/?seed=5&autoplay=3"),
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    dom = done.stdout
    assert 'data-moves="3"' in dom and 'data-done="yes"' in dom, (done.stderr[-2000:], dom[:2000])
    assert dom.count('class="card"') >= 13 and 'class="back"' in dom  # the picture is on the screen
    log = re.findall(r"<li>([^<]*)</li>", dom)
    assert sum(line.startswith("You: ") for line in log) == 3  # three moves made through the page's buttons
    assert all(re.fullmatch(r"(You|Bot \d): .+", line) for line in log), log
    games = list(server.games.games.values())
    assert len(games) == 1 and sum(line.startswith("You: ") for line in games[0].log) == 3
