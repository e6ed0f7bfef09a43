"""The editor's views: the editing view, its side panel, the help overlay and text helpers."""

from .editor_view import EditorView

__all__ = ["EditorView"]
