"""A disk that will not let go of a file: as a read-only folder or another user's file would."""

from pathlib import Path


def refuse_to_delete(monkeypatch, stuck: Path) -> None:
    """From now on ``Path.unlink`` of ``stuck`` fails as a read-only folder makes it; any
    other file is deleted as usual."""
    unlink = Path.unlink

    def refuse(path, *args, **kwargs):
        if path == stuck:
            raise PermissionError(13, "Permission denied")
        return unlink(path, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refuse)
