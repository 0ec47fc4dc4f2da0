"""One module per game: ``heuristic_action(state, player: int, rng: numpy.random.Generator) -> int``,
a greedy rule a person would call sensible, using only what ``player`` may see."""
