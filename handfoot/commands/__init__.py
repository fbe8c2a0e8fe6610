"""Command groups of the `handfoot` app; each module exposes `register(app)`."""
