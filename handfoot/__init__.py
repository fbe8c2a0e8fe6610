"""handfoot: camera-based scoring for Hand and Foot."""

__version__ = "0.1.0"
