"""Configuration values typed on the command line (``--config key=value``) or in the serve form."""

import pytest

from training.evaluate import parse_config, parse_config_value


@pytest.mark.parametrize("text,value", [
    ("3", 3), ("0.5", 0.5), ("true", True), ("True", True), ("false", False), ("False", False),
    ("null", None), ("None", None), ("[1, 2]", [1, 2]), ("cooperative", "cooperative"),
    ("TRUE", "TRUE"),  # not a literal: left as text, so the game's own check names it
])
def test_parse_config_value(text, value):
    assert parse_config_value(text) == value and type(parse_config_value(text)) is type(value)


def test_parse_config_pairs_and_errors():
    assert parse_config(["num_players=3", "hidden_artefacts=True", "mode=cooperative"]) == {
        "num_players": 3, "hidden_artefacts": True, "mode": "cooperative"}
    for bad in ("num_players", "=3"):
        with pytest.raises(ValueError, match=f"config items must be key=value, got {bad!r}"):
            parse_config([bad])


def test_a_value_nested_too_deeply_or_with_a_huge_number_is_a_short_value_error():
    """json.loads raised RecursionError for 5,000 '[' (an HTTP 500 in serve, a traceback on
    the command line): a ValueError that names the problem and quotes a short prefix."""
    with pytest.raises(ValueError, match=r"nested too deeply") as e:
        parse_config_value("[" * 5000)
    assert len(str(e.value)) < 300 and "(5002 characters)" in str(e.value)
    with pytest.raises(ValueError, match=r"holds a number of more than 4300 digits") as e:
        parse_config_value("9" * 5000)
    assert len(str(e.value)) < 300
    with pytest.raises(ValueError, match="nested too deeply"):
        parse_config(["num_players=" + "[" * 5000])
    assert parse_config_value("[[1]]") == [[1]]
