"""An ether-envs game as an RLlib ``MultiAgentEnv`` (needs Ray: the ``distributed`` extra).

    from training.rllib_env import TurnBasedMultiAgentEnv
    env = TurnBasedMultiAgentEnv({"game": "ethnos", "config": {"num_players": 3}})
    obs, infos = env.reset(seed=0)              # {"player_2": {"observation": ..., "action_mask": ...}}
    obs, rewards, terminateds, truncateds, infos = env.step({"player_2": action})
"""

from __future__ import annotations

from ray.rllib.env.multi_agent_env import MultiAgentEnv

import ether_envs


class TurnBasedMultiAgentEnv(MultiAgentEnv):
    """The PettingZoo AEC env of a game (``ether_envs.make(...).unwrapped``), turn by turn.

    Args:
        config: ``{"game": registered name, "config": {game config}}`` (RLlib's ``env_config``;
            default ``aethermon_collect`` with its default config).

    Agents are ``player_0 .. player_{n-1}``; every agent's spaces are the AEC env's:
    ``Dict(observation=Box float32 (obs_size,), action_mask=Box int8 (N,))`` and ``Discrete(N)``.
    ``reset`` and every step that does not end the game return an observation for the player
    to act only (reward 0: rewards are terminal only). The step that ends the game returns,
    for every seat that has been observed in this episode (in practice every seat), its final
    observation (all-zero mask), its return (``state.returns()[seat]``, e.g. +1 / -1) as
    reward, ``terminated`` True (``truncated`` True instead when the game was truncated) and
    ``info["scores"]``, with ``__all__`` True.

    Raises:
        ValueError: unknown game or bad config; in ``step``, an action for an agent other
            than the one to act, or an illegal action (the engine's error; state untouched).
    """

    def __init__(self, config: dict | None = None):
        super().__init__()
        config = dict(config or {})
        self.raw = ether_envs.make(config.get("game", "aethermon_collect"), **dict(config.get("config") or {})).unwrapped
        self.possible_agents = list(self.raw.possible_agents)
        self.agents = list(self.possible_agents)
        self.observation_spaces = dict(self.raw.observation_spaces)
        self.action_spaces = dict(self.raw.action_spaces)
        self._seen: set[str] = set()

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.raw.reset(seed=seed)
        self.agents = list(self.possible_agents)
        agent = self.raw.agent_selection
        self._seen = {agent}
        return {agent: self.raw.observe(agent)}, {}

    def step(self, action_dict: dict):
        raw = self.raw
        agent = raw.agent_selection
        if set(action_dict) != {agent}:
            raise ValueError(f"expected an action for {agent} (to act) only, got actions for {sorted(action_dict)}")
        raw.step(action_dict[agent])  # the raw env checks it is an action id (no float truncated by int())
        if raw.terminations[agent] or raw.truncations[agent]:
            truncated = bool(raw.truncations[agent])
            seats = [a for a in self.possible_agents if a in self._seen]
            obs = {a: raw.observe(a) for a in seats}
            rewards = {a: float(raw._cumulative_rewards[a]) for a in seats}
            terms = {a: not truncated for a in seats}
            truncs = {a: truncated for a in seats}
            infos = {a: dict(raw.infos[a]) for a in seats}
            terms["__all__"], truncs["__all__"] = not truncated, truncated
            self.agents = []
            return obs, rewards, terms, truncs, infos
        nxt = raw.agent_selection
        self._seen.add(nxt)
        return {nxt: raw.observe(nxt)}, {nxt: 0.0}, {"__all__": False}, {"__all__": False}, {}
