"""Errors the vision side raises: each message names the file or model at fault."""

from __future__ import annotations


class VisionError(Exception):
    """Base of every error vision code raises on purpose."""


class ImageError(VisionError):
    """A photo is missing, empty, not an image, or cannot be decoded."""


class ModelError(VisionError):
    """The detector's weights are missing or cannot be loaded."""
