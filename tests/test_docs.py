"""Every env docstring's generated parts (action and observation tables, sizes) are exactly
what ``python -m ether_envs.docs <game>`` generates: no row more or less, no stale size."""

import pytest

import ether_envs
from ether_envs import docs


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_env_docstring_is_what_the_docs_command_writes(name):
    _, doc, _ = docs.env_docstring(name)
    assert docs.rewritten(name, doc) == doc, docs.regenerate_hint(name)


def _doc(name="ether_wars"):
    return docs.env_docstring(name)[1]


def test_a_bogus_row_a_split_table_and_a_wrong_size_are_caught_and_repaired():
    doc = _doc()
    table = docs.generated("ether_wars")["actions"].split("\n")
    last = table[-1]
    bogus = doc.replace(last, last + "\n| 999-999 | bogus | x |")
    split = doc.replace(table[3], table[3] + "\n")  # a blank line inside the table
    size = doc.replace(f"Discrete({ether_envs.load_game('ether_wars').num_distinct_actions()})", "Discrete(1)")
    for broken in (bogus, split, size):
        assert broken != doc and docs.rewritten("ether_wars", broken) == doc


def test_a_missing_header_is_a_clear_error():
    header = docs.generated("ether_wars")["observation"].split("\n")[0]
    with pytest.raises(ValueError, match="the docstring has no table headed .* put that header line back"):
        docs.rewritten("ether_wars", _doc().replace(header, "| Slice | something else |"))


def test_the_command_prints_and_writes_nothing_when_up_to_date(capsys, monkeypatch):
    monkeypatch.setattr(docs.Path, "write_text", lambda *a, **k: pytest.fail("wrote an up-to-date file"))
    docs.main(["etherium"])
    out = capsys.readouterr().out
    assert docs.generated("etherium")["actions"] in out
    docs.main(["etherium", "--write"])
    assert "already up to date, nothing written" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        docs.main(["chess"])


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_every_assumption_id_cited_in_a_game_is_listed_in_its_rules_md(name):
    """An assumption id (``AC-A3``, ``ETH-A7``, ...) cited in a game package's code, its
    picture or its heuristic agent is a row of that game's RULES.md assumptions table."""
    import pathlib
    import re

    import agents
    root = pathlib.Path(ether_envs.__file__).parent
    pkg = root / name
    listed = set(re.findall(r"^\| *([A-Z]+-A\d+) *\|", (pkg / "RULES.md").read_text(), re.M))
    assert listed, f"{name}/RULES.md lists no assumption ids"
    prefix = next(iter(listed)).split("-")[0]
    files = [*pkg.glob("*.py"), root / "rendering" / f"{name}.py",
             pathlib.Path(agents.__file__).parent / "heuristics" / f"{name}.py"]
    cited = {m for f in files if f.exists() for m in re.findall(rf"\b{prefix}-A\d+\b", f.read_text())}
    assert cited and cited <= listed, f"cited in code but not in {name}/RULES.md: {sorted(cited - listed)}"
