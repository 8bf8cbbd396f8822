"""Issue 49: a sitting's server seed is committed (its hash in the log, the seed kept apart
by the store) before any client seed that sitting takes is published, so a host cannot
draw server seeds until the seats' seeds give it the rolls it likes: ``verify`` refuses an
opening whose server seed is not the committed one, and a client seed published before
its sitting's commitment, each with one line naming the entry. On SQLite and PostgreSQL
(``db``); a log of the rules before verifies as before."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion import sittings
from companion.sittings import new_server_seed, server_hash
from companion.store import open_store
from companion.store.campaign import create
from companion.table import Session
from tests.conftest import campaign_of, session_of
from tests.fairplay.cli import run, verify_doc
from tests.store.forge import rechain

pytestmark = pytest.mark.timeout(240)


def _news(event: dict[str, Any]) -> dict[str, Any]:
    news: dict[str, Any] = event["data"].get("sitting") or {}
    return news


def _export(capsys: pytest.CaptureFixture[str], name: str = "T") -> dict[str, Any]:
    status, out, err = run(capsys, "campaign", "export", name)
    assert status == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def _three_sittings(db: str) -> tuple[int, list[str]]:
    """Mira (GM) and Ash play three sittings; Ash sets a seed of its own for sitting 3.
    Returns the campaign's id and the committed hashes read while each was committed."""
    seen = []
    with open_store(db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        gm.roll("1d20")
        ash.roll("2d6")  # Ash offers a seed for sitting 2: sitting 2 is committed first
        seen.append(campaign_of(ash).sitting.committed)
        gm.roll("1d8", mode="gm")
        gm.close_sitting()
        gm.roll("1d20")  # sitting 2 opens with the committed seed; Mira offers for 3
        ash.set_client_seed("ash-lucky-words")  # replaces Ash's fresh seed for sitting 3
        seen.append(campaign_of(gm).sitting.committed)
        ash.roll("1d20")
        gm.close_sitting()
        ash.roll("1d6")  # sitting 3
        gm.close_sitting()
        return campaign_of(gm).info.id, seen


def test_an_honest_campaign_commits_each_server_seed_before_its_client_seeds(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", db)
    cid, seen = _three_sittings(db)
    doc = _export(capsys)
    events = doc["events"]
    commits = {n["commit"]["number"]: (e["seq"], n["commit"]["server_hash"])
               for e in events if "commit" in (n := _news(e))}
    assert sorted(commits) == [2, 3] and [commits[2][1], commits[3][1]] == seen
    for event in events:
        news = _news(event)
        for seat in news.get("next", {}):
            # Every seed for a sitting published in or after its commitment's entry.
            number = next(k for k, (at, _) in sorted(commits.items(), reverse=True)
                          if at <= event["seq"])
            assert commits[number][0] <= event["seq"], (seat, event["seq"])
        if "open" in news and news["open"]["number"] in commits:
            assert news["open"]["server_hash"] == commits[news["open"]["number"]][1]
            assert news["open"]["v"] == sittings.SITTING_VERSION
    openings = [_news(e) for e in events if "open" in _news(e)]
    assert openings[2]["clients"] == {"Ash": "ash-lucky-words", "Mira": openings[1][
        "next"]["Mira"]}
    # The committed seeds were kept apart and are gone with their sittings' closes.
    with open_store(db) as store:
        assert [store.sitting_secret(cid, h) for h in seen] == [None, None]
    # The command line, the library's verify and an imported copy agree.
    status, out, err = verify_doc(capsys, tmp_path, doc)
    assert status == 0 and err == "", err
    assert "6 seeds recomputed from the sittings' published seeds" in out, out
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    status, _, err = run(capsys, "campaign", "import", str(path), "--name", "Copy")
    assert status == 0, err
    status, again, _ = verify_doc(capsys, tmp_path, _export(capsys, "Copy"))
    assert status == 0 and again == out, again


def test_a_committed_seed_is_in_no_export_and_survives_reopening(
        db: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", db)
    with open_store(db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.roll("1d20")
        gm.close_sitting()
        ash = Session.open(store, "T", who="Ash", role="player")
        stored = ash.set_client_seed("ash-own")  # with no commitment yet: one, first
        assert stored is not None
        news = stored.data["sitting"]
        assert list(news) == ["commit", "next"] and "secret" not in news
        digest = news["commit"]["server_hash"]
        cid = campaign_of(gm).info.id
        kept = store.sitting_secret(cid, digest)
        assert kept is not None and server_hash(kept) == digest
    texts = [run(capsys, *argv)[1] for argv in (
        ("campaign", "export", "T"), ("log", "T", "--json", "--gm"), ("log", "T"),
        ("session", "show", "T"))]
    assert not any(kept in text for text in texts)
    with open_store(db) as store:  # another process opens the committed sitting
        gm = Session.open(store, "T", who="Mira", role="gm")
        gm.roll("1d20")
        assert campaign_of(gm).sitting.hash == digest
        assert campaign_of(gm).sitting.clients == {"Ash": "ash-own"}
        assert gm.close_sitting().data["sitting"]["close"]["server_seed"] == kept


def _sitting_two(doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    opening = next(e for e in doc["events"] if _news(e).get("open", {}).get("number") == 2)
    close = next(e for e in doc["events"] if _news(e).get("close", {}).get("number") == 2)
    return opening, close


def test_a_host_that_draws_the_server_seed_again_after_the_client_seeds_is_refused(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", db)
    _three_sittings(db)
    doc = _export(capsys)
    # The grind: a host that saw Ash's seed for sitting 2 draws server seeds until it
    # likes a roll, opens with it and reveals it at the close, every roll's seed and dice
    # made again from it, the log rechained: only the commitment, logged before Ash's
    # seed, still names the seed it was bound to.
    ground = copy.deepcopy(doc)
    opening, close = _sitting_two(ground)
    seed = new_server_seed()
    opening["data"]["sitting"]["open"]["server_hash"] = server_hash(seed)
    close["data"]["sitting"]["close"]["server_seed"] = seed
    status, out, err = verify_doc(capsys, tmp_path, rechain(ground))
    assert status == 2 and out == "" and err.count("\n") == 1, err
    commit = next(e["seq"] for e in doc["events"] if "commit" in _news(e))
    assert f"entry {opening['seq']}: sitting 2 opens with a server seed whose hash is not " \
        f"the one committed for it in entry {commit}: the server seed was drawn again " \
        "after the client seeds were published" in err, err
    path = tmp_path / "ground.json"
    path.write_text(json.dumps(ground))
    status, _, err = run(capsys, "campaign", "import", str(path), "--name", "G")
    assert status == 2 and "the server seed was drawn again" in err, err
    # Committing again after the seeds were seen is refused as well...
    again = copy.deepcopy(doc)
    opening, close = _sitting_two(again)
    opening["data"]["sitting"]["commit"] = {"number": 2, "server_hash": server_hash(seed)}
    status, _, err = verify_doc(capsys, tmp_path, rechain(again))
    assert status == 2 and err.count("\n") == 1 and "commits the server seed of sitting " \
        "2, which is not the next sitting" in err, err
    twice = copy.deepcopy(doc)
    close = next(e for e in twice["events"] if _news(e).get("close", {}).get("number") == 1)
    close["data"]["sitting"]["commit"] = {"number": 2, "server_hash": server_hash(seed)}
    status, _, err = verify_doc(capsys, tmp_path, rechain(twice))
    assert status == 2 and err.count("\n") == 1 and f"entry {close['seq']}: commits " \
        f"sitting 2's server seed again (it was committed in entry {commit})" in err, err
    # ... and so is a host that goes back to the rules before commitments.
    older = copy.deepcopy(doc)
    opening, close = _sitting_two(older)
    opening["data"]["sitting"]["open"] = {"number": 2, "server_hash": server_hash(seed),
                                          "v": 2}
    status, _, err = verify_doc(capsys, tmp_path, rechain(older))
    assert status == 2 and err.count("\n") == 1, err
    assert f"entry {opening['seq']}: sitting 2 opens under the rules before server seeds " \
        "were committed first" in err, err


def test_a_client_seed_published_before_its_commitment_is_refused(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", db)
    _three_sittings(db)
    doc = _export(capsys)
    # Sitting 2's commitment moved from the entry of Ash's seed to the close of sitting 1:
    # the host drew it after Ash's seed was public.
    moved = copy.deepcopy(doc)
    offer = next(e for e in moved["events"] if "commit" in _news(e))
    commit = offer["data"]["sitting"].pop("commit")
    close = next(e for e in moved["events"] if _news(e).get("close", {}).get("number") == 1)
    close["data"]["sitting"]["commit"] = commit
    status, out, err = verify_doc(capsys, tmp_path, rechain(moved))
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert f"entry {offer['seq']}: the client seed of Ash for sitting 2 is published before " \
        "that sitting's server seed was committed: the host could draw the server seed " \
        "after seeing it" in err, err
    # A seed added at a committed opening (the host knows the server seed by then).
    added = copy.deepcopy(doc)
    opening, _ = _sitting_two(added)
    opening["data"]["sitting"]["clients"]["Mira"] = "ground-by-the-host"
    status, _, err = verify_doc(capsys, tmp_path, rechain(added))
    assert status == 2 and err.count("\n") == 1, err
    assert f"entry {opening['seq']}: sitting 2 opens with a client seed of Mira not set for " \
        "it after its server seed was committed" in err, err


def _as_before_commitments(monkeypatch: pytest.MonkeyPatch) -> None:
    """This version's writer with the rules before commitments (``"v": 2`` openings,
    seeds for the next sitting with no commitment): the logs an earlier version wrote."""
    monkeypatch.setattr(sittings, "SITTING_VERSION", 2)
    monkeypatch.setattr(sittings.SittingState, "offer",
                        lambda self, seat, seed, commit_seed=None: {"next": {seat: seed}})


def test_a_campaign_of_the_rules_before_verifies_as_before_and_commits_from_its_next_sitting(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", db)
    with pytest.MonkeyPatch.context() as before:
        _as_before_commitments(before)
        with open_store(db) as store:
            gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
            ash = Session.open(store, "T", who="Ash", role="player")
            gm.roll("1d20")
            ash.roll("1d20")  # Ash's seed for sitting 2, with no commitment before it
            gm.close_sitting()
        old = _export(capsys)
    assert not any("commit" in _news(e) for e in old["events"])
    status, out, _ = verify_doc(capsys, tmp_path, old)
    assert status == 0 and "2 seeds recomputed" in out, out
    # Interpretation: the seeds set for sitting 2 before the upgrade open it under the
    # rules they were set by; a seed offered in it commits sitting 3 first.
    with open_store(db) as store:
        gm = Session.open(store, "T", who="Mira", role="gm")
        bo = Session.open(store, "T", who="Bo", role="player")
        gm.roll("1d20")
        bo.roll("1d20")
        gm.close_sitting()
        gm.roll("1d20")
        gm.close_sitting()
    doc = _export(capsys)
    openings = [_news(e)["open"] for e in doc["events"] if "open" in _news(e)]
    assert [o["v"] for o in openings] == [2, 2, 3]
    assert [_news(e)["commit"]["number"] for e in doc["events"] if "commit" in _news(e)] \
        == [3, 4]
    status, out, _ = verify_doc(capsys, tmp_path, doc)
    assert status == 0 and "5 seeds recomputed" in out, out


def test_a_committed_seed_not_in_this_database_is_withdrawn_and_named(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", db)
    with open_store(db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.roll("1d20")
        Session.open(store, "T", who="Ash", role="player").roll("1d20")
        gm.close_sitting()  # sitting 2 is committed; its seed stays in this database
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_export(capsys)))
    assert run(capsys, "campaign", "import", str(path), "--name", "Copy")[0] == 0
    status, _, err = run(capsys, "roll", "1d20", "--campaign", "Copy")
    assert status == 0, err
    assert run(capsys, "session", "close", "Copy")[0] == 0
    doc = _export(capsys, "Copy")
    opening = next(_news(e) for e in doc["events"]
                   if _news(e).get("open", {}).get("number") == 2)
    assert opening["open"]["withdrawn"] is True and "Ash" not in opening["clients"]
    status, out, _ = verify_doc(capsys, tmp_path, doc)
    assert status == 0, out
    assert "sitting 2 (entry " in out and "opened with a new server seed, not the one " \
        "committed in entry" in out and "1 client seed set for it dropped" in out, out


def test_the_sites_offline_verifier_gives_the_command_lines_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page runs this package's verify over the core zip it ships (no code of its
    own): given the honest export and the forgeries above, it says what ``verify`` says."""
    from tests.docs.test_site_verifier_views import SiteVerifier, cli_line

    db = str(tmp_path / "campaigns.db")
    monkeypatch.setenv("COMPANION_DB", db)
    _three_sittings(db)
    doc = _export(capsys)
    ground = copy.deepcopy(doc)
    opening, close = _sitting_two(ground)
    seed = new_server_seed()
    opening["data"]["sitting"]["open"]["server_hash"] = server_hash(seed)
    close["data"]["sitting"]["close"]["server_seed"] = seed
    moved = copy.deepcopy(doc)
    offer = next(e for e in moved["events"] if "commit" in _news(e))
    commit = offer["data"]["sitting"].pop("commit")
    next(e for e in moved["events"] if _news(e).get("close", {}).get("number") == 1)[
        "data"]["sitting"]["commit"] = commit
    files = [("honest.json", doc, ""), ("ground.json", rechain(ground), ""),
             ("moved.json", rechain(moved), "")]
    page = SiteVerifier(tmp_path).answers(files)
    said = [cli_line(tmp_path, name, d) for name, d, _ in files]
    assert [(a["ok"], a["line"]) for a in page] == said
    assert [ok for ok, _ in said] == [True, False, False]
    assert "the server seed was drawn again" in said[1][1]
    assert "published before that sitting's server seed was committed" in said[2][1]


def test_a_seed_set_before_the_first_commitment_cannot_join_a_committed_sitting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "campaigns.db")
    monkeypatch.setenv("COMPANION_DB", db)
    with pytest.MonkeyPatch.context() as before:
        _as_before_commitments(before)
        with open_store(db) as store:
            gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
            gm.roll("1d20")
            Session.open(store, "T", who="Ash", role="player").set_client_seed("ash-own")
            gm.close_sitting()
            gm.roll("1d20")  # sitting 2 of the rules before: Ash's seed, Mira's
            gm.close_sitting()
    doc = _export(capsys)
    # A host that passes sitting 2 off as committed, the commitment logged after Ash's
    # seed was public (in sitting 1's close).
    forged = copy.deepcopy(doc)
    opening, _ = _sitting_two(forged)
    first_close = next(e for e in forged["events"]
                       if _news(e).get("close", {}).get("number") == 1)
    digest = opening["data"]["sitting"]["open"]["server_hash"]
    first_close["data"]["sitting"]["commit"] = {"number": 2, "server_hash": digest}
    opening["data"]["sitting"]["open"]["v"] = sittings.SITTING_VERSION
    del opening["data"]["sitting"]["clients"]["Mira"]
    status, _, err = verify_doc(capsys, tmp_path, rechain(forged))
    assert status == 2 and err.count("\n") == 1, err
    offered = next(e["seq"] for e in doc["events"] if "next" in _news(e))
    assert f"entry {opening['seq']}: the client seed of Ash for sitting 2 was published in " \
        f"entry {offered}, before its server seed was committed (entry " \
        f"{first_close['seq']})" in err, err
