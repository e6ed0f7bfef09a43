"""Tag names: terrain and link tags, and the graph tag names of gated arcs.

A tag is a non-empty UTF-8 str without ``"|"`` that does not start with ``"requires:"``; ``""`` is
plain ground. A graph arc's tag name joins its surface tag and its requirements
(:func:`encode_arc_tag`), which :meth:`CostProfile.arc_weights <navmesh.terrain.CostProfile.arc_weights>`
decodes (:func:`decode_arc_tag`).
"""

from __future__ import annotations

from typing import Any

from navmesh.errors import InvalidOptionError, describe

__all__ = ["check_tag", "encodable", "encode_arc_tag", "decode_arc_tag", "REQUIRES_PREFIX"]

REQUIRES_PREFIX = "requires:"
_SEP = "|"


def check_tag(name: str, tag: Any, *, allow_empty: bool = False) -> str:
    """Return ``tag`` if it is a valid tag name: a str without ``"|"``, not starting with ``"requires:"``.

    ``""`` (plain ground) is allowed only with ``allow_empty``.

    Examples
    --------
    >>> check_tag("tag", "swamp")
    'swamp'
    """
    if not isinstance(tag, str):
        raise InvalidOptionError(f"{name}={describe(tag)} is not a tag; expected a str such as 'swamp'")
    if not encodable(tag):
        raise InvalidOptionError(f"{name}={describe(tag)} is not valid; a tag must be UTF-8 text (no lone surrogates)")
    if not tag and not allow_empty:
        raise InvalidOptionError(f"{name}='' is not valid; a tag must be a non-empty str ('' is plain ground)")
    if _SEP in tag or tag.startswith(REQUIRES_PREFIX):
        raise InvalidOptionError(
            f"{name}={describe(tag)} is not valid; tags may not contain {_SEP!r} or start with {REQUIRES_PREFIX!r}"
        )
    return tag


def encodable(text: str) -> bool:
    """Whether ``text`` can be written to a UTF-8 file (lone surrogates cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def encode_arc_tag(tag: str = "", requires: str | None = None) -> str:
    """Graph tag name for an arc with surface ``tag`` gated by capability ``requires``.

    The builder uses this to fill ``NavGraph.tag_names``; :meth:`CostProfile.arc_weights` decodes it.

    Examples
    --------
    >>> encode_arc_tag("ford", "wading_boots")
    'ford|requires:wading_boots'
    >>> encode_arc_tag(requires="key"), encode_arc_tag("ladder"), encode_arc_tag()
    ('requires:key', 'ladder', '')
    """
    check_tag("tag", tag, allow_empty=True)
    if requires is None:
        return tag
    check_tag("requires", requires)
    gate = REQUIRES_PREFIX + requires
    return f"{tag}{_SEP}{gate}" if tag else gate


def decode_arc_tag(name: str) -> tuple[str, frozenset[str]]:
    """Split a graph tag name into (surface tag, required capabilities); inverse of :func:`encode_arc_tag`.

    Examples
    --------
    >>> decode_arc_tag("ford|requires:wading_boots")
    ('ford', frozenset({'wading_boots'}))
    >>> decode_arc_tag("")
    ('', frozenset())
    """
    surface = ""
    needs: set[str] = set()
    for part in name.split(_SEP) if name else ():
        if part.startswith(REQUIRES_PREFIX):
            needs.add(part[len(REQUIRES_PREFIX) :])
        elif surface:
            raise InvalidOptionError(f"arc tag name {describe(name)} has two surface tags; expected 'tag|requires:cap'")
        else:
            surface = part
    return surface, frozenset(needs)
