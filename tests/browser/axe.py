"""axe-core in a Playwright page: the accessibility checks of issue 22.

axe-core comes from its npm package, packed once into ``build/npm`` (like Pyodide for the
site) and injected into the page as a script: no CDN, no network at test time once packed.
Only WCAG 2.0/2.1 A and AA rules run, and only serious or critical findings count.

    from tests.browser.axe import serious_violations
    assert serious_violations(page) == []
"""

from __future__ import annotations

import functools
import subprocess
import tarfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
AXE_VERSION = "4.10.3"
NPM_CACHE = ROOT / "build" / "npm"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
COUNTED = ("serious", "critical")

_RUN_JS = """async ([tags, counted, exclude]) => {
  const context = exclude.length ? {include: [['html']], exclude: exclude.map(s => [s])}
                                 : document;
  const result = await axe.run(context, {
    runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.filter(v => counted.includes(v.impact)).map(v =>
    `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}x) e.g. ` +
    v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' [' +
      (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160) + ']').join(' | '));
}"""


@functools.cache
def axe_source() -> str:
    """``axe.min.js`` of the pinned axe-core, packed from npm into ``build/npm`` if missing."""
    NPM_CACHE.mkdir(parents=True, exist_ok=True)
    tarball = NPM_CACHE / f"axe-core-{AXE_VERSION}.tgz"
    if not tarball.exists() or tarball.stat().st_size == 0:
        subprocess.run(["npm", "pack", f"axe-core@{AXE_VERSION}", "--silent"],
                       cwd=NPM_CACHE, check=True, capture_output=True, timeout=300)
    with tarfile.open(tarball) as tar:
        member = tar.extractfile("package/axe.min.js")
        assert member is not None, f"{tarball} holds no package/axe.min.js"
        return member.read().decode("utf-8")


def serious_violations(page: Any, exclude: tuple[str, ...] = ()) -> list[str]:
    """The page's serious and critical WCAG 2.1 A/AA violations, one line each; parts
    matching the CSS selectors in ``exclude`` are left out (a template's header and
    navigation, already checked on another page of the same template)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    found: list[str] = page.evaluate(_RUN_JS, [WCAG_TAGS, list(COUNTED), list(exclude)])
    return found
