"""What every page must pass in a browser: it fits the screen, and axe-core finds nothing
serious on it."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

BLOCKING = ("serious", "critical")

# Elements whose right edge passes the screen's, outermost first: what widens the page.
_PAST_THE_EDGE = """(width) => {
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 0.5) {
      const cls = el.getAttribute("class");
      out.push(`${el.tagName.toLowerCase()}${cls ? "." + cls.split(" ").join(".") : ""}`
        + ` ends at ${Math.round(box.right)}px: ${(el.textContent || "").trim().slice(0, 60)}`);
    }
  }
  return out.slice(0, 8);
}"""


def assert_no_sideways_scroll(page, width: int) -> None:
    """The page is no wider than a screen `width` CSS pixels wide.

    A phone's browser widens its layout viewport to take in a page wider than the screen,
    so window.innerWidth must still be the screen's width as well as the page's width.
    """
    inner, scroll = page.evaluate("() => [window.innerWidth, document.documentElement.scrollWidth]")
    if inner != width or scroll > inner:
        culprits = page.evaluate(_PAST_THE_EDGE, width)
        raise AssertionError(
            f"{page.url} scrolls sideways on a {width} px screen: the page is {scroll} px wide "
            f"and the browser widened its viewport to {inner} px; past the edge:\n  "
            + "\n  ".join(culprits)
        )


def within_screen(page, locator) -> bool:
    """The element is shown and lies within the screen's width."""
    box = locator.bounding_box()
    width = page.evaluate("window.innerWidth")
    return (
        locator.is_visible()
        and box is not None
        and box["x"] >= 0
        and box["x"] + box["width"] <= width + 0.5
    )


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:5])
        for v in found
        if v["impact"] in BLOCKING
    ]
