"""Errors the vision side raises for input a user can fix."""


class VisionError(Exception):
    """Base class: a problem with a photo or the model, with a message for the user."""


class ImageError(VisionError):
    """A photo that is missing, not an image, empty or unreadable."""


class ModelError(VisionError):
    """The detector's weights are missing or unusable."""
