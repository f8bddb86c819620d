"""One player's board, camp, cards and the ongoing abilities of their champions, as plain slots.

The ongoing champions' abilities are gathered into small lists and numbers when a champion joins
(:meth:`PlayerState.add_champion`), so the rules ask "who reacts to this?" by walking a short list,
never by looking at card ids.
"""

from __future__ import annotations

from rules_engine.valeria.effects import ANY, BATTLES

NB = len(BATTLES)


class PlayerState:
    __slots__ = (
        "gold", "magic", "influence", "score", "gems", "dice", "where", "board", "wild", "side", "covered",
        "spaces", "gem_cap", "limit_step", "cap", "strength_on", "wild_on", "slot_open", "reserved",
        "completed", "champions", "by_type", "areas", "award_marks",
        # ongoing abilities: (card, amount) / (card, battle, gold, magic) ...
        "strength_any", "strength_battle", "t_complete", "t_champion", "t_chain", "t_gem", "t_plan",
        "echo_gold", "echo_magic", "match_gold", "match_magic", "disc_champion", "disc_plan", "disc_bonus",
        "strength_cards")

    def __init__(self, rules=None):
        if rules is None:
            return
        self.influence, self.gold, self.magic, self.score = rules.start
        self.gems = 0
        self.dice = []                 # die codes in the troop spaces
        self.where = 5                 # the Warden: 0-4 a shrine, 5 the Camp (where it starts)
        self.board = -1                # index in rules.boards
        self.wild = -1                 # the board's Wild troop type
        self.side = None               # the campaign map side (rules.maps[m][s]) as (m, s)
        self.covered = (1 << len(rules.circles)) - 1   # circles still under a conquest marker
        self.spaces = rules.troop_spaces
        self.gem_cap = rules.gem_storage
        self.limit_step = 0
        self.cap = rules.track_locked
        self.strength_on = False
        self.wild_on = False
        self.slot_open = [s.open for s in rules.slots]
        self.reserved = [-1] * len(rules.slots)
        self.completed = []            # plan numbers, in order
        self.champions = []            # champion numbers, in order
        self.by_type = [0, 0, 0]
        self.areas = 0                 # skirmish areas covered (bit i = area i)
        self.award_marks = 0           # award slots holding one of this player's markers (bits)
        self.strength_any = 0
        self.strength_battle = [0] * NB
        self.t_complete, self.t_champion, self.t_chain, self.t_gem, self.t_plan = [], [], [], [], []
        self.echo_gold, self.echo_magic = [], []
        self.match_gold, self.match_magic = [], []
        self.disc_champion = self.disc_plan = self.disc_bonus = 0
        self.strength_cards = []

    def copy(self) -> "PlayerState":
        new = PlayerState()
        for name in self.__slots__:
            value = getattr(self, name)
            setattr(new, name, value[:] if type(value) is list else value)
        return new

    # ------------------------------------------------------------------ champions

    def add_champion(self, number: int, champion) -> None:
        """The champion joins; its ongoing ability (if any) starts working from now on."""
        self.champions.append(number)
        self.by_type[champion.type] += 1
        kind, p = champion.kind, champion.params
        if kind == "strength":
            if p["battle"] == ANY:
                self.strength_any += p["amount"]
            else:
                self.strength_battle[BATTLES.index(p["battle"])] += p["amount"]
            self.strength_cards.append((number, p["amount"], -1 if p["battle"] == ANY else BATTLES.index(p["battle"])))
        elif kind == "whenever":
            entry = (number, p["gold"], p["magic"])
            event = p["event"]
            if event == "complete_plan":
                self.t_complete.append((number, -1 if p["battle"] == ANY else BATTLES.index(p["battle"]),
                                        p["gold"], p["magic"]))
            elif event == "gain_champion":
                self.t_champion.append(entry)
            elif event == "chain_bonus":
                self.t_chain.append(entry)
            elif event == "gem":
                self.t_gem.append(entry)
            else:
                self.t_plan.append(entry)
        elif kind == "echo":
            (self.echo_gold if p["resource"] == "gold" else self.echo_magic).append((number, p["amount"]))
        elif kind == "match_influence":
            (self.match_gold if p["resource"] == "gold" else self.match_magic).append(number)
        elif kind == "discount":
            if p["purchase"] == "champion":
                self.disc_champion += p["amount"]
            elif p["purchase"] == "plan":
                self.disc_plan += p["amount"]
            else:
                self.disc_bonus += p["amount"]

    def limit(self, rules) -> int:
        return rules.champion_limits[self.limit_step]

    def open_slots(self) -> list[int]:
        """Reserve slots that are unlocked and empty."""
        reserved = self.reserved
        return [i for i, unlocked in enumerate(self.slot_open) if unlocked and reserved[i] < 0]

    def battle_strength_bonus(self, battle: int, rules) -> int:
        return (self.strength_any + self.strength_battle[battle]
                + (rules.strength_bonus if self.strength_on else 0))
