"""A rule variant is one change: the component constants are read from one place.

A Crystal extraction cost of 2 pips instead of 3 (rulebook "Areas of the Board") is a change
of ``components.EXTRACTION_COST``; the rules read it through ``Game.extraction_cost``
(extraction, Silo raids, purchase prices and sale values) and so does the picture."""

from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C
from ether_envs.rendering import ether_wars as picture

from .builders import act, at_phase, face, new_state, place, start_resolution

F2, F3 = face(2), face(3)  # Unit faces with 2 and 3 full pips


def resolution_state():
    s = at_phase(new_state(2), codec.RESOLUTION)
    s.first = 0
    return s


def crystal_extracted(pips_faces):
    s = resolution_state()
    place(s, 0, C.CRYSTAL_SEA, units=len(pips_faces))
    start_resolution(s, pips_faces)
    act(s, "RESOLVE", C.CRYSTAL_SEA)
    return s.res[0][C.CRYSTAL]


def test_crystal_extraction_cost_variant_is_the_one_constant(monkeypatch):
    assert crystal_extracted([F2, F3]) == 1  # rulebook example: 5 pips -> 1 Crystal at 3 pips each
    monkeypatch.setattr(C, "EXTRACTION_COST", (1, 2, 2, 2))  # the variant
    s = resolution_state()
    assert s.game.extraction_cost == (1, 2, 2, 2)
    assert s.extraction_cost(0, C.CRYSTAL) == 2
    assert s.raid_cost(0, C.CRYSTAL) == 3  # extraction cost + 1 (rulebook "Player Silos")
    assert s.buy_cost(0, C.CRYSTAL) == 3  # extraction cost + 1 (rulebook "Purchasing")
    assert crystal_extracted([F2, F3]) == 2  # 5 pips -> 2 Crystal at 2 pips each


def test_crystal_sale_value_and_the_picture_follow_the_variant(monkeypatch):
    monkeypatch.setattr(C, "EXTRACTION_COST", (1, 2, 2, 2))
    s = resolution_state()
    s.res[0][C.CRYSTAL] = 2
    place(s, 0, C.MARKET, units=1)
    start_resolution(s, [F2])
    act(s, "RESOLVE", C.MARKET)
    act(s, "RESOURCE", C.PLASMA)  # a purchase of Plasma
    act(s, "PAY", C.CRYSTAL)  # a Crystal sells for its extraction cost
    assert s.decision == codec.K_PAY and s.resolving.purchase_credit == 2

    texts = []

    class Recorder:  # a canvas that keeps the texts drawn
        def text(self, x, y, text, **kw):
            texts.append(text)

        def __getattr__(self, name):
            return lambda *args, **kw: None

    picture._draw_board(s, Recorder())
    assert "Crystal: 2 pips each" in texts
