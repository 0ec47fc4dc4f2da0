"""Component data against the counts the rulebook fixes ("Components")."""

from ether_envs.aetherspire import components as C
from ether_envs.aetherspire import rules as R


def test_components_counts_match_rulebook():
    """10 large, 12 medium, 16 small tiles; 15 characters (5/5/5); 16 fiends; 6
    adaptations; 40 invaders (10 per element); 50 pillars; 8 dice; 4 bonus tokens."""
    sizes = [t.size for t in C.TILES]
    assert (sizes.count(C.LARGE), sizes.count(C.MEDIUM), sizes.count(C.SMALL)) == (10, 12, 16)
    assert [sum(c.tier == k for c in C.CHARACTERS) for k in ("starter", "advanced", "solo")] == [5, 5, 5]
    assert len(C.FIENDS) == 16 and sorted((f.element, f.level) for f in C.FIENDS) == [
        (e, lv) for e in range(4) for lv in range(1, 5)]
    assert len(C.ADAPTATIONS) == 6 and {"stable", "turbulent"} <= {a.key for a in C.ADAPTATIONS}
    assert C.NUM_INVADERS == 40 and C.INVADERS_PER_ELEMENT == 10
    assert C.NUM_PILLARS == 50 and C.NUM_DICE == 8 and len(C.BONUSES) == 4


def test_components_die_faces_one_per_element_four_stars():
    """ASP-A1."""
    assert sorted(C.DIE_FACES) == [C.EARTH, C.AIR, C.FIRE, C.WATER, C.STAR, C.STAR, C.STAR, C.STAR]


def test_components_tiles_have_standard_and_multi_sides():
    """Every tile has a multi side (counts as all elements) with a star-only space per room;
    small special tiles have no rooms on the standard side (ASP-A2..A4)."""
    for t in C.TILES:
        std, multi = t.sides
        assert multi.elements == C.MULTI and std.elements != C.MULTI
        for r in multi.rooms:
            assert any(need == (1 << C.STAR,) for need in r.needs)
        if std.effect:
            assert t.size == C.SMALL and std.rooms[0].needs == ()
    assert sum(bool(t.sides[0].effect) for t in C.TILES) == 4
    assert "magma_eruption" in {t.sides[0].effect for t in C.TILES}


def test_components_track_has_lose_space_and_four_fiend_slots():
    """ASP-A8: Start, 22 numbered spaces, Lose; 4 awakening spaces."""
    assert R.C.LOSE_SPACE == 23 and len(C.TRACK_COUNTS) == 23 and C.TRACK_COUNTS[0] == 0
    assert len(C.AWAKEN_SPACES) == 4


def test_components_every_item_has_a_source():
    assert all(t.source.startswith("ASP-A") for t in C.TILES)
    assert all(c.source.startswith("ASP-A") for c in C.CHARACTERS)
    assert all(f.source.startswith("ASP-A") for f in C.FIENDS)
    assert all("ASP-A" in a.source or "rulebook" in a.source for a in C.ADAPTATIONS)


def test_components_assumption_ids_listed_in_rules_md_and_used_in_code():
    """Every assumption id in RULES.md is cited in the package code, and vice versa."""
    import pathlib
    import re

    pkg = pathlib.Path(C.__file__).parent
    listed = set(re.findall(r"^\| (ASP-A\d+) \|", (pkg / "RULES.md").read_text(), re.M))
    code = set()
    for f in pkg.glob("*.py"):
        code |= set(re.findall(r"ASP-A\d+", f.read_text()))
    assert listed == code and len(listed) == 26
