"""Learning-agent environments over the engine.

- :func:`env` / :class:`raw_env` (extra ``rummylib[rl]``: numpy, gymnasium,
  pettingzoo): a PettingZoo AEC environment, every seat an agent.
- :func:`gym_env` (extra ``rummylib[rl]``): a Gymnasium environment
  (:class:`RummyGymEnv`), one learner against built-in bots.
- :mod:`rummylib.rl.openspiel` (extra ``rummylib[openspiel]``): registers
  ``python_remik`` and ``python_straight_rummy`` with OpenSpiel on import.

Actions are :class:`~rummylib.encoding.ActionCodec` ids and observations
:class:`~rummylib.encoding.ObservationEncoder` vectors, with the legal-action
mask. Each adapter imports its framework only when first used, and a missing
framework raises an ImportError that names the extra to install.

>>> from rummylib import STRAIGHT
>>> from rummylib.rl import env
>>> e = env(rules=STRAIGHT, players=2)
>>> e.reset(seed=1)
>>> obs, reward, termination, truncation, info = e.last()
>>> int(obs["action_mask"].sum())
2
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummylib.rl._gym import RummyGymEnv, gym_env
    from rummylib.rl._pettingzoo import env, raw_env

__all__ = ["RummyGymEnv", "env", "gym_env", "raw_env"]

_HOMES = {"env": "_pettingzoo", "raw_env": "_pettingzoo", "gym_env": "_gym", "RummyGymEnv": "_gym"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        msg = f"module 'rummylib.rl' has no attribute {name!r}"
        raise AttributeError(msg)
    from rummylib.rl._common import require

    require("rl", "numpy", "gymnasium", "pettingzoo")
    return getattr(importlib.import_module(f"rummylib.rl.{home}"), name)
