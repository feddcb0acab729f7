"""axe-core (Deque's accessibility engine, the npm package the Makefile fetches into
.cache/axe-core/) run in a page: what it finds serious or critical.

The pages are served with a strict Content-Security-Policy (script-src 'self'), which refuses a
script Playwright adds to them: the contexts that run axe are made with ``bypass_csp=True``
(:func:`axe_context`), which changes nothing else a page does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / ".cache" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def axe_context(browser: Browser, viewport: dict[str, int]) -> BrowserContext:
    """A context whose pages take axe's script: the one the fixtures make, with the policy bypassed."""
    context = browser.new_context(
        viewport=viewport, device_scale_factor=1, locale="en-GB", reduced_motion="reduce", bypass_csp=True
    )
    context.set_default_timeout(30_000)
    return context


def serious_problems(page: Page, where: str) -> list[str]:
    """axe's serious and critical violations on the page as it stands, one line each (where, the
    rule, what it asks, the first nodes it names); empty when there are none."""
    if not AXE.is_file():
        raise RuntimeError(f"axe-core is not in {AXE.parent}: run `make axe` (`make test` fetches it)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const result = await axe.run(document, { resultTypes: ["violations"] });
          return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")) }));
        }"""
    )
    return [
        f"{where}: {v['impact']} {v['id']} ({v['help']}) at {', '.join(v['nodes'])}"
        for v in found
        if v["impact"] in SERIOUS
    ]
