"""Play remik (or Straight Rummy) in the browser against rummylib's bots.

Usage:
    python examples/web/server.py                 # then open http://127.0.0.1:8000/
    python examples/web/server.py --port 8080     # http://127.0.0.1:8080/?rules=straight for Straight Rummy

Only the standard library serves it. The server keeps each game's state and
answers with what the human's seat may know, as the serve-views how-to
teaches: the seat's view (JSON, and the :mod:`rummylib.svg` picture of it),
its events of every step since its last move (``events(...).for_seat``), and
its legal actions in notation. Actions arrive in notation and are applied
with ``apply(state, action, seat=HUMAN)``; the bots play the other seats.

HTTP API (JSON bodies):
    GET  /                         the page (index.html)
    POST /api/games                {"rules": "remik", "seed": 7} -> a new game
    GET  /api/games/<id>           the game as the human sees it
    POST /api/games/<id>/actions   {"action": "discard KS"} -> the game after it and the bots' replies
    GET  /api/games/<id>/record    the game's record (text) once it is over: it holds the seed
Every game reply is {"id", "view", "svg", "legal", "events", "log"}; an
error is {"error": "..."} with status 400 or 404.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import secrets
import threading
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import rummylib as rl
from rummylib.bots import GreedyBot, LegalActions, SeatActions
from rummylib.events import Event, event_to_dict, events
from rummylib.records import GameRecord, RecordHeaders, format_action, format_record, parse_action, to_dict
from rummylib.svg import view_svg

#: The human's seat; the bots play every other seat.
HUMAN = 0
#: Most games kept at once (the oldest is dropped), largest request body, most legal actions listed.
MAX_GAMES = 200
MAX_BODY = 16 * 1024
MAX_LISTED = 400
PAGE = Path(__file__).with_name("index.html")
_GAME_PATH = re.compile(r"/api/games/([0-9a-f]{32})(/actions)?")
_RECORD_PATH = re.compile(r"/api/games/([0-9a-f]{32})/record")


class Game:
    """One game: the state stays here; replies hold only the human seat's knowledge."""

    def __init__(self, rules: rl.Ruleset, seed: int | None) -> None:
        names = ["You"] + [f"Bot {i}" for i in range(1, 3)]
        self.state = rl.new_game(rules, names, seed=seed)
        self.bots = {seat: GreedyBot(seat) for seat in range(1, len(names))}
        self.log: list[str] = []
        self.actions: list[rl.Action] = []
        self.lock = threading.Lock()
        self.pending: list[Event] = []
        self._bots_play()

    def _step(self, action: rl.Action, seat: int) -> None:
        after = rl.apply(self.state, action, seat=seat)
        event = events(self.state, action, after).for_seat(HUMAN)  # what the human learns, nothing more
        self.state = after
        self.actions.append(action)
        self.pending.append(event)
        self.log.append(event.text(after.players))

    def _bots_play(self) -> None:
        while self.state.phase in (rl.Phase.DRAW, rl.Phase.PLAY) and self.state.to_act != HUMAN:
            seat = self.state.to_act
            legal = SeatActions(LegalActions(self.state))  # the bot sees its view and its actions, never the state
            action = self.bots[seat].choose(rl.view(self.state, seat), legal)
            self._step(action, seat)

    def play(self, text: str) -> None:
        """Apply the human's action (notation), then let the bots move until it is the human's turn."""
        self._step(parse_action(text, self.state.rules), HUMAN)
        self._bots_play()

    def record(self) -> str:
        """The finished game as a record file (it holds the seed, so it is given only once the game is over)."""
        s = self.state
        scores = ", ".join(f"{name} {total}" for name, total in zip(s.players, s.totals))
        winners = " and ".join(s.players[w] for w in s.standings.winners)
        headers = RecordHeaders(event="rummylib in the browser", site="examples/web", result=f"{scores}; {winners} won")
        return format_record(GameRecord(s.rules, s.players, s.seed, 0, self.actions, headers))

    def reply(self, game_id: str) -> dict[str, Any]:
        """The human's view, its picture, its new events and its legal actions."""
        v = rl.view(self.state, HUMAN)
        legal = list(rl.legal_actions(self.state)) if v.is_my_turn or v.phase is rl.Phase.ROUND_OVER else []
        new, self.pending = self.pending, []
        return {
            "id": game_id,
            "view": to_dict(v),
            "svg": view_svg(v),
            "legal": [format_action(a) for _, a in zip(range(MAX_LISTED), legal)],
            "more_legal": max(0, len(legal) - MAX_LISTED),
            "events": [event_to_dict(e) for e in new],
            "log": self.log[-40:],
        }


class Games:
    """The games being played, by secret id (whoever holds the id plays the human seat)."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.lock = threading.Lock()

    def new(self, rules: rl.Ruleset, seed: int | None) -> tuple[str, Game]:
        game_id = secrets.token_hex(16)
        game = Game(rules, seed)
        with self.lock:
            self.games[game_id] = game
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)
        return game_id, game

    def get(self, game_id: str) -> Game | None:
        with self.lock:
            return self.games.get(game_id)


class Handler(BaseHTTPRequestHandler):
    """The HTTP side: JSON in, JSON out; every error a 4xx with a message."""

    server: RummyServer

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            super().log_message(format, *args)

    def _send(self, status: HTTPStatus, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: HTTPStatus, data: dict[str, Any]) -> None:
        self._send(status, json.dumps(data, ensure_ascii=True).encode(), "application/json")

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 <= length <= MAX_BODY:
            raise ValueError(f"the request body must be at most {MAX_BODY} bytes")
        data = json.loads(self.rfile.read(length) or b"{}")
        if not isinstance(data, dict):
            raise ValueError("the request body is a JSON object")
        return data

    def do_GET(self) -> None:
        if self.path in ("/", "/index.html") or self.path.startswith("/?"):
            self._send(HTTPStatus.OK, PAGE.read_bytes(), "text/html; charset=utf-8")
            return
        record = _RECORD_PATH.fullmatch(self.path)
        plain = _GAME_PATH.fullmatch(self.path)
        game_id = record.group(1) if record else (plain.group(1) if plain and not plain.group(2) else "")
        game = self.server.games.get(game_id)
        if game is None:
            self._json(HTTPStatus.NOT_FOUND, {"error": "no such game"})
            return
        with game.lock:
            if record is None:
                self._json(HTTPStatus.OK, game.reply(game_id))
            elif not game.state.is_over:  # the record holds the seed: every hidden card
                self._json(HTTPStatus.CONFLICT, {"error": "the record is given once the game is over"})
            else:
                self._send(HTTPStatus.OK, game.record().encode(), "text/plain; charset=utf-8")

    def do_POST(self) -> None:
        try:
            body = self._body()
            if self.path == "/api/games":
                rules = rl.get_ruleset(str(body.get("rules", "remik")))
                seed = body.get("seed")
                if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64):
                    raise ValueError("seed is an integer 0 .. 2**64-1")
                game_id, game = self.server.games.new(rules, seed)
                with game.lock:
                    self._json(HTTPStatus.OK, game.reply(game_id))
                return
            match = _GAME_PATH.fullmatch(self.path)
            game = self.server.games.get(match.group(1)) if match and match.group(2) else None
            if game is None:
                self._json(HTTPStatus.NOT_FOUND, {"error": "no such game"})
                return
            action = body.get("action")
            if not isinstance(action, str):
                raise ValueError('send {"action": "<notation>"}, as in {"action": "discard KS"}')
            with game.lock:
                game.play(action)
                self._json(HTTPStatus.OK, game.reply(match.group(1)))  # type: ignore[union-attr]
        except (rl.RummyError, ValueError) as error:  # bad JSON, bad notation, an illegal action
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(error)})


class RummyServer(ThreadingHTTPServer):
    """A threading HTTP server holding the games."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], *, quiet: bool = False) -> None:
        super().__init__(address, Handler)
        self.games = Games()
        self.quiet = quiet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play rummy in the browser against rummylib's bots.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    with RummyServer((args.host, args.port)) as server:
        print(f"open http://{args.host}:{server.server_address[1]}/ (Ctrl-C stops)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
