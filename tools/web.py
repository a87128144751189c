"""`clankwork play PACK --web`: several people and bots in one game, each person in a browser.

The server holds the only `Game`; it runs in a thread of its own, where every seat is a
`Bot`: a bot seat answers at once, a person's seat (`WebSeat`) waits until that person's
page sends an answer. The engine checks nothing a page says; this module does, against the
decision the engine put to that seat: the answer must name the decision now open for the
seat (its number) and one of its options (by index), else it is refused with why.

Each person's seat has its own secret link (`/seat/TOKEN`); the token is the only thing
that says who a page is, so a page sees its own hand and nobody else's: the views are made
per seat on the server (`seat_view`), and another seat's hand is never in what is sent. The
views are made in the game's thread while it waits for a person (the state is still then),
and sent to every page over its websocket.

aiohttp serves it: one package that is both the HTTP server and the websocket end (no
separate ASGI server to install and run), with a client for the tests that speaks the same
websocket protocol as the page. The page is plain HTML, CSS and JavaScript held here and
served by the app (tools/web_page.py): nothing is fetched from elsewhere, so it works
offline and on a phone on the same network (`--host 0.0.0.0`).

The log is written as `clankwork play` writes it (`livelog.LiveLog`), a record at a time, and
replays with `clankwork replay --check`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import signal
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import graphviz
from aiohttp import WSMsgType, web

from clankwork.interpreter import assembly as asm
from clankwork.interpreter.bots import make_bot
from clankwork.interpreter.catalog import Catalog
from clankwork.interpreter.decisions import Decision
from clankwork.interpreter.game import BLACK, Game

from .livelog import LiveLog
from .menus import HUMAN, card_text, option_text, question
from .render_board import board_graph, pick_board, render_graph
from .replay import Narrator
from .replay_html import clean_svg
from .simulate import bot_seed
from .web_page import page_html, script_hash

# Lines of the game's story a page is sent (the latest ones).
STORY_LINES = 60
# The largest message a page may send (an answer is a few dozen bytes).
MAX_MESSAGE = 4096


class _Stop(Exception):
    """The server is closing: the game's thread stops waiting and ends."""


class WebSeat:
    """A person's seat: its decisions wait for the person's page."""

    name = HUMAN

    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat

    def choose(self, view: Any, decision: Decision) -> int:
        """Wait for the person's answer (checked by `Table.answer`)."""
        return self.table.wait_for(self.seat, view, decision)


class _Told:
    """A seat as the engine sees it: the bot or person behind it, and the story told."""

    def __init__(self, table: Table, seat: int, inner: Any) -> None:
        self.table = table
        self.seat = seat
        self.inner = inner
        self.name = getattr(inner, "name", HUMAN)

    def choose(self, view: Any, decision: Decision) -> int:
        index = self.inner.choose(view, decision)
        self.table.teller.decided(view, decision, index)
        return index


class _Teller(Narrator):
    """The replay narrator, flushed before a person is asked (their page tells the turn so
    far)."""

    __slots__ = ()

    def flush(self, game: Game) -> None:
        """Write the open line and the turn's heading now."""
        self._turn(game)
        self._close(game)


class Table:
    """One game with people and bots: the engine in a thread, the people's open decisions,
    the views each seat may see, and the story so far."""

    def __init__(
        self,
        ir: dict[str, Any],
        catalog: Catalog,
        seats: Sequence[str],
        seed: int,
        log: LiveLog,
        modules: str | None = None,
    ) -> None:
        self.catalog = catalog
        self.cards = {c["name"]: c for c in ir.get("cards", ())}
        self.seats = list(seats)
        self.seed = seed
        self.log = log
        self.lock = threading.Condition()
        # The decision open for each person's seat: (its number, the decision).
        self.pending: dict[int, tuple[int, Decision]] = {}
        self.answers: dict[int, int] = {}
        self.asked = 0
        self.views: dict[int, dict[str, Any]] = {}
        self.story: list[str] = []
        self.done = False
        self.failed: str | None = None
        self.stopping = False
        # Called (in the game's thread) whenever the views change.
        self.on_change: Callable[[], None] = lambda: None
        self.tokens = {secrets.token_urlsafe(18): k for k, s in enumerate(seats) if s == HUMAN}
        self.teller = _Teller(len(seats), catalog.space_slots, list(seats), self._tell)
        self.modules = modules
        # Built in the game's thread (a pack's setup may ask a person a decision already):
        # set once it is built or a person is first asked, whichever comes first (`ready`).
        self.game: Game | None = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="clankwork-game", daemon=True)

    def _tell(self, text: str = "") -> None:
        if text.strip():
            self.story.append(text.strip("\n"))

    # -- the game's thread ----------------------------------------------------------------

    def start(self) -> Game:
        """Start the game in its thread (its bots move at once; it waits for people as they
        are asked); the game, once it is set up or asks a person its first question."""
        self.thread.start()
        self.ready.wait()
        if self.game is None:
            raise RuntimeError(f"the game could not be set up: {self.failed}")
        return self.game

    def _build(self) -> Game:
        inner = [
            WebSeat(self, k) if s == HUMAN else make_bot(s, bot_seed(self.seed, k))
            for k, s in enumerate(self.seats)
        ]
        players = [_Told(self, k, b) for k, b in enumerate(inner)]
        game = Game(self.catalog, players, self.seed, stats=self.teller, modules=self.modules)
        # Records are written as the engine appends them: the header and setup's now.
        game.log = _Logged(game.log, self.log.add)
        self.log.restart(game.log)
        with self.lock:
            self.game = game
            self._publish(game)
        self.ready.set()
        return game

    def _run(self) -> None:
        game = None
        try:
            game = self._build()
            game.play(after_turn=self.teller.after_turn)
            self.teller.finish(game)
        except _Stop:
            return
        except Exception as e:  # an engine bug: said on every page, not a dead server
            self.failed = f"{type(e).__name__}: {e}"
        finally:
            self.ready.set()
        self.log.close()  # the whole game is on disk
        with self.lock:
            self.done = True
            if self.game is not None:
                self._publish(self.game)
            self.lock.notify_all()
        self.on_change()

    def wait_for(self, seat: int, game: Game, decision: Decision) -> int:
        """Put ``decision`` to the person at ``seat`` and wait for their checked answer."""
        with self.lock:
            if self.game is None:  # asked during setup: the game is this one
                self.game = game
            self.asked += 1
            self.pending[seat] = (self.asked, decision)
            self.teller.flush(game)
            self._publish(game)
            self.lock.notify_all()
        self.ready.set()
        self.on_change()
        with self.lock:
            while seat not in self.answers and not self.stopping:
                self.lock.wait()
            if self.stopping:
                raise _Stop
            del self.pending[seat]
            return self.answers.pop(seat)

    def _publish(self, game: Game) -> None:
        self.views = {k: seat_view(self, game, k) for k in range(len(self.seats))}

    # -- the server's side ----------------------------------------------------------------

    def answer(self, seat: int, asked: Any, index: Any) -> str | None:
        """A person's answer: None when it is taken, else why it is refused."""
        with self.lock:
            open_now = self.pending.get(seat)
            if open_now is None or seat in self.answers:
                return "there is no decision of yours open now: wait for your turn"
            number, decision = open_now
            if asked != number:
                return f"decision {asked!r} is not the one open now ({number}): reload the page"
            if isinstance(index, bool) or not isinstance(index, int):
                return "an answer names its option by its index (a whole number)"
            if not 0 <= index < len(decision.options):
                return f"there is no option {index} (0 to {len(decision.options) - 1})"
            self.answers[seat] = index
            self.lock.notify_all()
        return None

    def wait_past(self, asked: int, timeout: float) -> bool:
        """Wait until a person is asked a decision after decision number ``asked``, or the
        game is over (True), at most ``timeout`` seconds (False)."""
        with self.lock:
            return self.lock.wait_for(
                lambda: self.done or self.stopping or (self.asked > asked and self.pending),
                timeout,
            )

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now."""
        with self.lock:
            return self.views.get(seat) or {"seat": seat, "starting": True}

    def stop(self) -> None:
        """End the game's thread (a person's pending decision is never answered)."""
        with self.lock:
            self.stopping = True
            self.lock.notify_all()


class _Logged(list):  # type: ignore[type-arg]
    """The game's log list, each record also written to the log file as it is appended."""

    def __init__(self, records: list[dict[str, Any]], sink: Callable[[dict[str, Any]], None]):
        super().__init__(records)
        self.sink = sink

    def append(self, record: dict[str, Any]) -> None:
        super().append(record)
        self.sink(record)


def _card(game: Game, card: Any, cards: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"name": card.name, "text": card_text(card, cards, game.catalog.dragon_word)}


def seat_view(table: Table, game: Game, seat: int) -> dict[str, Any]:
    """The game as the person at ``seat`` may see it: the board, the row, the reserve, the
    dragon and the bag, every player's public state (where, health, gold, the play area, how
    many cards in hand, deck and discard), and only this seat's own hand, tokens and open
    decision."""
    spaces = game.board.spaces
    health = game.rules["health"]
    bag = Counter(game.bag)
    players = []
    for p in game.players:
        players.append(
            {
                "seat": p.seat,
                "who": table.seats[p.seat],
                "at": p.pos,
                "space": spaces[p.pos].name,
                "damage": p.damage,
                "health": health,
                "gold": game.gold_of(p),
                "skill": p.skill,
                "swords": p.swords,
                "boots": p.boots,
                "area": p.area,
                "status": p.status,
                "hand": len(p.hand),
                "deck": len(p.deck),
                "discard": len(p.discard),
                "play": [c.name for c in p.play],
                "artifact": p.artifact.name if p.artifact else None,
                "tokens": len(p.tokens),
            }
        )
    me = game.players[seat]
    view: dict[str, Any] = {
        "seat": seat,
        "pack": game.catalog.name,
        "board": game.board.name,
        "seed": game.seed,
        "round": game.round,
        "turn": game.turn,
        "active": game.active.seat,
        "gold": game.catalog.gold_word,
        "dragon": game.catalog.dragon_word,
        "rage": game.rage + 1,
        "rage_track": len(game.rules["rage_track"]),
        "attack": game.attack_size(),
        "bag": [bag.get(k, 0) for k in range(len(game.players))] + [bag.get(BLACK, 0)],
        "players": players,
        "hand": [_card(game, c, table.cards) for c in me.hand],
        "tokens": [t.name for t in me.tokens],
        "row": [_card(game, c, table.cards) for c in game.row],
        "reserve": [{"name": c.name, "cost": c.cost, "left": n} for c, n in game.reserve.items()],
        "story": table.story[-STORY_LINES:],
        "waiting": sorted(table.pending),
        "decision": None,
        "over": table.done,
    }
    open_now = table.pending.get(seat)
    if open_now is not None:
        number, d = open_now
        view["decision"] = {
            "number": number,
            "question": question(game, d),
            "options": [
                {"index": i, "label": o.label, "text": option_text(game, o, table.cards)}
                for i, o in enumerate(d.options)
            ],
        }
    if table.done and game.result is not None:
        r = game.result
        view["result"] = {
            "scores": list(r.scores),
            "winners": list(r.winners),
            "end": r.end_reason,
        }
    if table.failed:
        view["failed"] = table.failed
    return view


def board_drawing(ir: dict[str, Any], catalog: Catalog, game: Game) -> str:
    """The game's board as `render board` draws it (a modular board as this game's ship was
    assembled), cleaned for the page; empty without Graphviz (the page then lists where
    everyone is without a drawing)."""
    board_ir = pick_board(ir, game.board.name)
    if game.assembly:
        board_ir = asm.assemble(board_ir, game.assembly)
    try:
        return clean_svg(render_graph(board_graph(board_ir, ways=ir.get("ways", ())), "svg"))
    except graphviz.ExecutableNotFound:
        return ""


# -- the server -------------------------------------------------------------------------------


class Server:
    """The web server of one `Table`: pages, the board, a websocket per page."""

    def __init__(self, table: Table, board_svg: str) -> None:
        self.table = table
        self.board_svg = board_svg
        self.sockets: dict[web.WebSocketResponse, int] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.runner: web.AppRunner | None = None
        self.url = ""
        self._started = threading.Event()
        self.announce: Callable[[], None] | None = None
        self._stopped: asyncio.Event | None = None
        table.on_change = self._changed

    def app(self) -> web.Application:
        """The aiohttp application."""
        app = web.Application(client_max_size=MAX_MESSAGE)
        app.router.add_get("/", self.home)
        app.router.add_get("/seat/{token}", self.page)
        app.router.add_get("/ws/{token}", self.socket)
        return app

    def seat_urls(self) -> dict[int, str]:
        """Each person's seat and its secret link."""
        return {k: f"{self.url}/seat/{t}" for t, k in self.table.tokens.items()}

    async def home(self, request: web.Request) -> web.Response:
        return web.Response(
            text="Clankwork: open the link of your seat (the host was given one for each).\n",
            content_type="text/plain",
        )

    def _seat(self, request: web.Request) -> int:
        seat = self.table.tokens.get(request.match_info["token"])
        if seat is None:
            raise web.HTTPForbidden(text="no seat has that link: ask the host for yours\n")
        return seat

    async def page(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        csp = (
            "default-src 'none'; style-src 'unsafe-inline'; connect-src 'self'; "
            f"script-src {script_hash()}; img-src 'none'; base-uri 'none'; form-action 'none'"
        )
        return web.Response(
            text=page_html(self.board_svg, seat),
            content_type="text/html",
            headers={
                "Content-Security-Policy": csp,
                "Referrer-Policy": "no-referrer",
                "Cache-Control": "no-store",
                "X-Content-Type-Options": "nosniff",
            },
        )

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        seat = self._seat(request)
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
        await ws.prepare(request)
        self.sockets[ws] = seat
        try:
            await self._send(ws, seat)
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                problem = self._message(seat, msg.data)
                if problem is not None:
                    await ws.send_json({"type": "refused", "why": problem})
                    await self._send(ws, seat)
        finally:
            self.sockets.pop(ws, None)
        return ws

    def _message(self, seat: int, data: str) -> str | None:
        """Act on a page's message; None when taken, else why it is refused."""
        try:
            msg = json.loads(data)
        except ValueError:
            return "a message is a JSON object"
        if not isinstance(msg, dict):
            return "a message is a JSON object"
        if msg.get("type") == "answer":
            return self.table.answer(seat, msg.get("decision"), msg.get("index"))
        if msg.get("type") == "view":
            if msg.get("seat", seat) != seat:
                return "a page sees its own seat only: another seat's hand is not shown"
            return None
        return f"unknown message type {str(msg.get('type'))[:40]!r}"

    async def _send(self, ws: web.WebSocketResponse, seat: int) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_json({"type": "view", "view": self.table.view(seat)})

    def _changed(self) -> None:
        if self.loop is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop is closing
                self.loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._broadcast()))

    async def _broadcast(self) -> None:
        for ws, seat in list(self.sockets.items()):
            await self._send(ws, seat)

    async def _serve(self, host: str, port: int) -> None:
        self.loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        self.runner = web.AppRunner(self.app(), access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        addresses = self.runner.addresses
        bound = addresses[0][1] if addresses else port
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{bound}"
        if threading.current_thread() is threading.main_thread():
            # The host's Ctrl-C, or a service manager's TERM: close the pages and stop.
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    self.loop.add_signal_handler(sig, self._stopped.set)
        self._started.set()
        if self.announce is not None:
            self.announce()
        try:
            await self._stopped.wait()
        finally:
            for ws in list(self.sockets):
                await ws.close()
            await self.runner.cleanup()

    def run(self, host: str, port: int, announce: Callable[[], None] | None = None) -> None:
        """Serve until `stop`, a TERM or Ctrl-C (blocks: the CLI's main thread, or a test's
        thread); ``announce`` is called once the server listens (`url` is set)."""
        self.announce = announce
        try:
            asyncio.run(self._serve(host, port))
        finally:
            self._started.set()

    def start_in_thread(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve from a thread of its own; the base URL once it listens (for tests)."""
        thread = threading.Thread(target=self.run, args=(host, port), daemon=True)
        thread.start()
        self._started.wait()
        if not self.url:
            raise RuntimeError(f"the server could not listen on {host}:{port}")
        self._thread = thread
        return self.url

    def stop(self) -> None:
        """Stop serving, and the game's thread."""
        self.table.stop()
        if self.loop is not None and self._stopped is not None:
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self._stopped.set)
        thread = getattr(self, "_thread", None)
        if thread is not None:
            thread.join(timeout=10)
