"""Fixed-size numeric encodings of actions and views, for learning agents (DESIGN.md "encoding").

- :class:`ActionCodec`: every single-step action of a ruleset has one fixed
  integer id; ``legal_ids``/``legal_mask`` give the legal ones of a state.
- :class:`ObservationEncoder`: a :class:`~rummylib.PlayerView` as a
  fixed-length vector of numbers, built from the view alone (R-H1).

Pure Python: no dependency beyond rummylib's own. The layouts and their
sizes for each preset are documented in the docs ("Action ids and
observations").

>>> import rummylib as rl
>>> from rummylib.encoding import ActionCodec, ObservationEncoder
>>> s = rl.new_game(rl.REMIK, 4, seed=3)
>>> codec, obs = ActionCodec(rl.REMIK, 4), ObservationEncoder(rl.REMIK, 4)
>>> [codec.decode(i) for i in sorted(codec.legal_ids(s))][:2]
[Discard(card=Card('6S')), Discard(card=Card('8S'))]
>>> len(obs.encode(rl.view(s, 0))) == obs.size
True
"""

from __future__ import annotations

from rummylib.encoding._actions import ActionCodec
from rummylib.encoding._errors import EncodingError, EncodingReason
from rummylib.encoding._observation import ObservationEncoder

__all__ = ["ActionCodec", "EncodingError", "EncodingReason", "ObservationEncoder"]
