"""Learning-agent environments over the engine (extra ``rummylib[rl]``: numpy, gymnasium, pettingzoo).

- :func:`env` / :class:`raw_env`: a PettingZoo AEC environment, every seat an agent.
- :func:`gym_env`: a Gymnasium environment, one learner against built-in bots.
- :mod:`rummylib.rl.openspiel` (extra ``rummylib[openspiel]``): registers
  ``python_remik`` and ``python_straight_rummy`` with OpenSpiel on import.

Actions are :class:`~rummylib.encoding.ActionCodec` ids and observations
:class:`~rummylib.encoding.ObservationEncoder` vectors, with the legal-action mask.

>>> from rummylib import STRAIGHT
>>> from rummylib.rl import env
>>> e = env(rules=STRAIGHT, players=2)
>>> e.reset(seed=1)
>>> obs, reward, termination, truncation, info = e.last()
>>> int(obs["action_mask"].sum())
2
"""

from __future__ import annotations

from rummylib.rl._common import require

require("rl", "numpy", "gymnasium", "pettingzoo")

from rummylib.rl._gym import gym_env  # noqa: E402 (after the check of the extra)
from rummylib.rl._pettingzoo import env, raw_env  # noqa: E402

__all__ = ["env", "gym_env", "raw_env"]
