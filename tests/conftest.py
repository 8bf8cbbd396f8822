"""Fixtures and helpers shared by every suite.

``find_widget(root, name, kind=None)`` (import it: ``from tests.conftest import find_widget``)
    The one widget finder for tests: the single widget under ``root`` carrying the class
    ``tc-<kind>-<name>`` that the helpers of ``companion.widgets.base`` add (``button(...,
    name=)`` -> ``tc-btn-``, ``text_box(name=)`` -> ``tc-text-``, ``int_box`` -> ``tc-int-``,
    ``name_box`` -> ``tc-name-``, and ``tc-select-``/``tc-check-`` where modules use them).
    Without ``kind`` any of these kinds matches. Fails, listing what is there, when there is
    none or more than one. ``widgets_by_name(root, kind="btn")`` gives them all by name.

``built_site`` (session)
    ``site/``, built with ``make docs`` first when it is missing or older than any of its
    sources (the package, ``docs/``, ``tools/``, ``widgets/``, ``mkdocs.yml``). A failed build
    fails the tests that need it; nothing is skipped. Under pytest-xdist one worker builds
    while the others wait on a lock.

``chromium_launch`` (session)
    Keyword arguments for ``playwright.chromium.launch``: Debian's Chromium
    (``/usr/bin/chromium``, installed with ``apt-get`` when missing, because Playwright's own
    browser download does not work here), headless, with the flags this machine needs. A
    failed install fails the test; nothing is skipped.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from companion.store.campaign import Campaign
    from companion.table.session import Session

# Hypothesis's default deadline (200 ms an example) is a wall-clock assertion: on a loaded
# machine an example of the history's JSON round trip took 270 ms and failed a run that
# proved nothing about the code. A fuzz's cost is bounded by its number of examples, and a
# hang by pytest-timeout; a test that must bound an example's time says so itself.
settings.register_profile("table", deadline=None)
settings.load_profile("table")

# The phone apps (issue 44): a player's seat link opens them when the server has them
# built, and a checkout may hold a build (build/phone) or not. Tests see none unless one
# says where its build is (COMPANION_PHONE_DIR), so what a link is does not depend on
# what was built before the run.
os.environ.setdefault("COMPANION_PHONE_DIR", str(Path(tempfile.gettempdir())
                                                 / "tc-no-phone-apps"))


def _patient_expect() -> None:
    """Every ``expect`` waits up to 30 s for its state, not Playwright's 5 s: a browser test
    waits for state, and on a loaded machine (two ``stress`` hogs beside CI's two workers) a
    kernel's answer to a tap took over 5 s (the open-in-place test's "back to the table"
    failed so). The bound only limits how long a real failure takes to show."""
    try:
        from playwright.sync_api import expect
    except ImportError:  # make check without the browser extras
        return
    expect.set_options(timeout=30_000)


_patient_expect()


#: The folder ``pytest_configure`` made for this test process, if it made one.
_private_data_home = ""


def pytest_configure(config: pytest.Config) -> None:
    # Each test process (one per pytest-xdist worker) keeps campaigns made without an explicit
    # COMPANION_DB in a folder of its own, never in the developer's own campaigns file and
    # never in another worker's.
    global _private_data_home
    if "COMPANION_DB" not in os.environ:
        _private_data_home = tempfile.mkdtemp(prefix="tc-test-data-")
        os.environ["XDG_DATA_HOME"] = _private_data_home


def pytest_unconfigure(config: pytest.Config) -> None:
    # The folder goes with the process: a day of `make check` runs otherwise leaves one
    # folder of campaign files in /tmp per run and worker (120 were found after one day).
    global _private_data_home
    if _private_data_home:
        shutil.rmtree(_private_data_home, ignore_errors=True)
        _private_data_home = ""


#: Where each test process writes when each test ran (``test-artifacts/timeline-*.tsv``:
#: worker, start and end in seconds since the epoch, outcome-free): how two workers share
#: the run, and which test held one worker while the other stood idle at the end.
TIMELINE_DIR = Path(__file__).resolve().parents[1] / "test-artifacts"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    import time

    start = time.time()
    yield
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    TIMELINE_DIR.mkdir(exist_ok=True)
    with (TIMELINE_DIR / f"timeline-{worker}.tsv").open("a", encoding="utf-8") as out:
        out.write(f"{worker}\t{start:.3f}\t{time.time():.3f}\t{item.nodeid}\n")


#: Fixtures that need the built site: tests using them are marked ``site`` (make check
#: leaves them out; make test builds the site first).
SITE_FIXTURES = {"built_site", "static_site", "site_url", "in_browser"}


#: The longest tests first (each module kept whole: its module-wide fixtures start once).
#: pytest-xdist's worksteal gives each worker a run of the list and an idle worker takes
#: from the end of the other's run; the site's page sweeps, last in the list's order, were
#: taken at the end and left one worker idle for 40 s of a CI run (timeline-*.tsv).
LONGEST_FIRST = ("tests/docs/test_site_pages.py", "tests/static_apps/",
                 "tests/store/test_streamed_files.py", "tests/docs/test_site_browser.py",
                 "tests/docs/test_site_verifier.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.site)

    def rank(item: pytest.Item) -> int:
        return next((i for i, start in enumerate(LONGEST_FIRST)
                     if item.nodeid.startswith(start)), len(LONGEST_FIRST))

    items.sort(key=rank)  # stable: the rest keep their order


#: The kinds of ``tc-<kind>-<name>`` classes the widget helpers add.
WIDGET_KINDS = ("btn", "text", "int", "name", "select", "check")


@overload
def session_of(campaign: None) -> None: ...


@overload
def session_of(campaign: Campaign | Session) -> Session: ...


def session_of(campaign: Campaign | Session | None) -> Session | None:
    """The table session of a campaign a test opened itself (issue 43: a face is handed a
    session, never the campaign): the session that already pinned it, else a new one,
    its seat fixed from then on. A test is no face: it holds both to check one with the
    other."""
    from companion.table import session as table_session

    if campaign is None or isinstance(campaign, table_session.Session):
        return campaign
    found = table_session._SESSIONS.get(campaign)
    return found if found is not None else table_session.Session(campaign)


@overload
def campaign_of(session: None) -> None: ...


@overload
def campaign_of(session: Session) -> Campaign: ...


def campaign_of(session: Session | None) -> Campaign | None:
    """The campaign under ``session``, for a test that checks the store's side of what
    the session did (the live trackers, the whole log, the campaign's id)."""
    return session._campaign if session is not None else None  # a test looks inside


def closure_roll(controls: Any, label: str, action: Any, text: Any = str, *,
                 seed: int | None = None, trackers: Any = ()) -> Any:
    """A rule roll of a function, the way ``RollControls.run`` made it before every roll
    became a named act (issue 43): the session's own unit of work
    (``Session._rule_roll``) run with ``action`` under the controls' mode, faces and
    seed. For the tests of that unit of work (atomic moves, real dice left over, a lost
    race), which need a roll that moves what the test says; no app rolls this way."""
    from companion.dice import physical
    from companion.widgets.base import one_line
    from companion.widgets.rolls import RuleRoll

    controls.error.clear()
    faces = controls._faces()
    try:
        made = controls.session_for(trackers)._rule_roll(
            label, action, text, mode=controls.mode_value, own_dice=faces,
            chosen_seed=seed if faces is None else None, seeds=controls._seed_source)
    except physical.OwnDiceError as exc:
        controls._refuse(one_line(exc))
    out = RuleRoll(made.mode, made.value, made.seed, made.physical, made.entry,
                   made.commitment, made.text, made.visible)
    controls.last = out
    return out


def _walk(root: Any) -> Iterator[Any]:
    stack = [root]
    seen: set[int] = set()
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        yield widget
        stack.extend(reversed(list(getattr(widget, "children", ()) or ())))


def _names(widget: Any, kinds: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    for cls in getattr(widget, "_dom_classes", ()):
        for kind in kinds:
            prefix = f"tc-{kind}-"
            if cls.startswith(prefix):
                yield kind, cls.removeprefix(prefix)


def widgets_by_name(root: Any, kind: str = "btn") -> dict[str, Any]:
    """Every widget under ``root`` with a ``tc-<kind>-<name>`` class, by name."""
    return {name: w for w in _walk(root) for _kind, name in _names(w, (kind,))}


def find_widget(root: Any, name: str, kind: str | None = None) -> Any:
    """The one widget under ``root`` classed ``tc-<kind>-<name>`` (any helper kind if None)."""
    kinds = (kind,) if kind else WIDGET_KINDS
    hits = [w for w in _walk(root) for k, n in _names(w, kinds) if n == name]
    if len(hits) != 1:
        there = sorted({f"tc-{k}-{n}" for w in _walk(root) for k, n in _names(w, kinds)})
        how = "no" if not hits else f"{len(hits)}"
        pytest.fail(f"{how} widget named {name!r} (kind {kind or 'any'}) under "
                    f"{type(root).__name__}; there are: {', '.join(there) or 'none'}")
    return hits[0]

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium keeps dialling Google's hosts, which this
# machine's closed network refuses many at a time.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _install_chromium() -> None:
    apt = ["apt-get"] if os.geteuid() == 0 else ["sudo", "-n", "apt-get"]
    for args in (["update"], ["install", "-y", "chromium"]):
        done = subprocess.run(
            [*apt, *args], capture_output=True, text=True, timeout=900, check=False
        )
        if done.returncode != 0:
            pytest.fail(
                f"could not install chromium ({' '.join(apt + args)} exited "
                f"{done.returncode}): {done.stderr.strip()[-500:]}"
            )


@pytest.fixture(scope="session")
def chromium_launch() -> dict[str, Any]:
    """``playwright.chromium.launch(**chromium_launch)`` starts Debian's Chromium."""
    if not CHROMIUM.exists():
        _install_chromium()
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} still missing after apt-get install chromium")
    return {"executable_path": str(CHROMIUM), "headless": True, "args": list(CHROMIUM_ARGS)}


ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"


def _newest_source() -> float:
    sources: list[Path] = [ROOT / "mkdocs.yml", ROOT / "pyproject.toml"]
    for folder in ("companion", "docs", "tools", "widgets"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and "assets" not in path.parts:
                sources.append(path)
    return max(p.stat().st_mtime for p in sources if p.exists())


def site_is_fresh() -> bool:
    index = SITE / "index.html"
    return index.exists() and index.stat().st_mtime >= _newest_source()


@pytest.fixture(scope="session")
def built_site() -> Path:
    # pytest-xdist runs one session per worker: the lock makes one of them build a stale site
    # while the others wait (two builds into one folder would tear each other's files).
    ROOT.joinpath("build").mkdir(exist_ok=True)
    with open(ROOT / "build" / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not site_is_fresh():
            done = subprocess.run(
                ["make", "docs"], cwd=ROOT, capture_output=True, text=True, timeout=1200
            )
            if done.returncode != 0:
                pytest.fail(f"make docs failed ({done.returncode}):\n{done.stdout[-3000:]}"
                            f"\n{done.stderr[-3000:]}")
    assert (SITE / "index.html").exists()
    return SITE


class TapClock:
    """The clock of ``confirm_button`` in in-process tests: each reading is a second after
    the last, so every ``click()`` is a separate tap (as a player's deliberate taps are);
    ``freeze()`` makes the next clicks one double tap (issue 31)."""

    def __init__(self) -> None:
        self.now = 1_000.0
        self.frozen = False

    def __call__(self) -> float:
        if not self.frozen:
            self.now += 1.0
        return self.now

    def freeze(self) -> None:
        self.frozen = True


_OPENED_STORES: weakref.WeakSet[Any] = weakref.WeakSet()


def _track_stores() -> None:
    """Note every SQL store opened from now on (once the store module is loaded: a test of
    the rules alone pays nothing for it)."""
    db = sys.modules.get("companion.store.db")
    if db is None or getattr(db.SqlStore.__init__, "tracked", False):
        return
    opened = db.SqlStore.__init__

    def tracked_init(self: Any, *args: Any, **kwargs: Any) -> None:
        opened(self, *args, **kwargs)
        _OPENED_STORES.add(self)

    tracked_init.tracked = True  # type: ignore[attr-defined]
    db.SqlStore.__init__ = tracked_init


@pytest.fixture(autouse=True)
def close_stores_after_the_test() -> Iterator[None]:
    """Release the connections of every store a test opened. An app's widgets stay in
    ipywidgets' registry (and so their session's store) after the test: without this, a
    worker late in a full run held over 1,024 SQLite files open, and ``select()`` refused
    the descriptors past that. A closed store stays usable (it reconnects on demand), so a
    store a wider-scoped fixture shares is only released, never broken."""
    _track_stores()
    yield
    _track_stores()
    for store in list(_OPENED_STORES):
        store.close()


@pytest.fixture(autouse=True)
def tap_clock(monkeypatch: pytest.MonkeyPatch) -> TapClock:
    """See [TapClock]: ``click()`` twice means two taps a second apart, unless frozen."""
    clock = TapClock()
    # Only where the widgets are loaded already (a widget test imports them at the top):
    # the rules' own tests must not pay for importing ipywidgets, nor depend on it.
    controls = sys.modules.get("companion.widgets.controls")
    if controls is not None:
        monkeypatch.setattr(controls, "clock", clock)
    return clock


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Any]:
    """The test process's one Playwright (sync API): Playwright allows one per thread, so
    every folder's browser tests share it (tests/hub's own copy of this fixture met the
    browser tests' in one xdist worker and failed: "Sync API inside the asyncio loop")."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance: Any, chromium_launch: dict[str, Any]) -> Iterator[Any]:
    """One headless Chromium for the process (see ``chromium_launch``)."""
    b = playwright_instance.chromium.launch(**chromium_launch)
    yield b
    b.close()
