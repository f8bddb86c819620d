"""Spanish wording of Shadow Throne transcripts: the same keys as ``transcript.ENGLISH``.

Terms follow the Spanish edition (oleada, Oro por Silencio, Marcador de Poder, Imperio / Rebeldes / Iglesia).
"""

SPANISH = {
    "_and": "y",
    "_list_sep": ", ",
    "_character": "{card} ({player})",
    "_track_item": "{faction} {power}",
    "_pick": "{player} toma {card}",
    "_reward_item": "{card} {amount}",
    "_dead": " (muerto: la mitad)",
    # the article a name takes (and its contraction after "a"), by the name's gender and number as the data
    # gives them (i18n/es.yaml: gender: masculine plural); "proper": a personal name, said without one
    "_the_faction": {"masculine": "el {faction}", "masculine plural": "los {faction}", "feminine": "la {faction}",
                     "feminine plural": "las {faction}", "other": "{faction}"},
    "_to_faction": {"masculine": "al {faction}", "masculine plural": "a los {faction}", "feminine": "a la {faction}",
                    "feminine plural": "a las {faction}", "other": "a {faction}"},
    "_The_character": {"masculine": "El {character}", "masculine plural": "Los {character}",
                       "feminine": "La {character}", "feminine plural": "Las {character}", "other": "{character}"},
    "_to_character": {"masculine": "al {character}", "masculine plural": "a los {character}",
                      "feminine": "a la {character}", "feminine plural": "a las {character}", "other": "a {character}"},
    "_none": "nada",
    "_step_list_word": "paso",
    "game_start": "Empieza una partida de {players} jugadores. Cada uno tiene {gold} de oro; "
                  "quien llegue a {goal} de influencia termina la partida.",
    "scenario_start": "Antes de la batalla: {holdings}.",
    "_holding": "{player} tiene {gold} de oro y {influence} de influencia",
    "battle_start": "== Batalla {battle} ==",
    "kept_card": "{player} empieza con {card} en la mano, guardada de la batalla anterior.",
    "carried": "{The_character} sigue en el campo desde la batalla anterior y cuenta como jugado antes de la "
               "primera oleada.",
    "deal": "Se baraja el mazo y cada jugador recibe un grupo de {size} cartas. Cada uno toma una y pasa "
            "el resto a la izquierda hasta agotar los grupos.",
    "draft_round": "Elección {round}: {picks}.",
    "hand": "Mano de {player}: {cards}.",
    "wave_start": "-- Oleada {wave} --",
    "wave_empty": "-- Oleada {wave} -- Nadie juega un personaje.",
    "pay": "{player} revela {card} y paga {amount} de oro (ahora tiene {gold}).",
    "pay_hush": "{player} revela {card} y paga {amount} de oro, Oro por Silencio incluido (ahora tiene {gold}).",
    "collect": "{player} revela {card} y cobra {amount} de oro (ahora tiene {gold}).",
    "collect_hush": "{player} revela {card}; el Oro por Silencio reduce su ingreso a {amount} de oro "
                    "(ahora tiene {gold}).",
    "play_free": "{player} revela {card}, que no cuesta nada (tiene {gold} de oro).",
    "poor": "{player} revela {card} pero no puede pagar {need} de oro con solo {had}: la carta se pone boca "
            "abajo y queda fuera de la batalla, y {player} cobra 1 de oro (ahora tiene {gold}).",
    "extra_pay": "{player} añade {card} a la oleada gracias {to_source} y paga {amount} de oro, "
                 "sin Oro por Silencio (ahora tiene {gold}).",
    "extra_collect": "{player} añade {card} a la oleada gracias {to_source} y cobra {amount} de oro "
                     "(ahora tiene {gold}).",
    "extra_play_free": "{player} añade {card} a la oleada gracias {to_source}, sin coste "
                       "(tiene {gold} de oro).",
    "extra_none": "{player} no aprovecha {source} para añadir otra carta.",
    "extra_refused": "{player} no puede añadir {card} con {source}: {reason}.",
    "_extra_refused_blocked": "su habilidad no se produce",
    "_extra_refused_dead": "murió antes de su paso",
    "_extra_refused_unaffordable": "no puede pagar la carta",
    "_extra_refused_not_allowed": "la carta no es de la facción adecuada",
    "blocked": "{The_character} no usa su habilidad de paso {step}: {reason}.",
    "_blocked_dead": "murió en un paso anterior",
    "_blocked_suppressed": "está anulada",
    "kill": "{The_source} mata {to_targets}.",
    "kill_none": "{The_source} no encuentra a nadie a quien matar.",
    "convert": "{The_source} convierte {to_targets} {to_faction}.",
    "convert_bonus": "{The_source} convierte {to_targets} {to_faction}, cada uno con +{amount} de poder.",
    "convert_none": "{The_source} no encuentra a nadie a quien convertir.",
    "embolden": "{The_source} da +{amount} de poder {to_targets}.",
    "embolden_none": "{The_source} no encuentra a nadie a quien inspirar.",
    "boost": "{The_source} obtiene +{amount} de poder: su dueño se quedó con {gold} de oro tras pagarlo.",
    "nothing_condition": "{The_source} no obtiene poder extra: su dueño se quedó con {gold} de oro tras pagarlo.",
    "nothing_no_next_wave": "{The_source} se jugó en la última oleada, así que su habilidad no tiene oleada "
                            "a la que afectar.",
    "schedule": "{The_source} dará +{amount} de poder a cada personaje {faction_adjective} de la oleada siguiente.",
    "suppress": "{The_source} anula las habilidades de {steps} de {targets}.",
    "suppress_none": "{The_source} no encuentra habilidades que anular.",
    "stay": "{The_source} seguirá en el campo en la próxima batalla, salvo que la victoria sea para {the_faction}.",
    "death_influence": "{The_character} muere y {player} gana {amount} de influencia al instante "
                       "(ahora tiene {influence}).",
    "power_track": "Marcador de Poder: {power}.",
    "battle_won": "Poder final: {power}. La victoria es para {factions}.",
    "battle_tied": "Poder final: {power}. Comparten la victoria {factions}, empatados con el mayor poder.",
    "rewards": "{player}: {parts}; ahora tiene {total_influence} de influencia y {total_gold} de oro.",
    "_rewards_influence": "+{amount} de influencia ({items})",
    "_rewards_gold": "+{amount} de oro de consolación ({items})",
    "_rewards_nothing": "sin recompensa",
    "stays": "{The_character} se queda en el campo para la próxima batalla.",
    "game_over": "Fin de la partida: la influencia de {players} llega a {goal}.",
    "winner": "{player} gana con {influence} de influencia.",
    "winner_gold": "{player} gana: empate a {influence} de influencia, pero con más oro ({gold}).",
    "no_winner": "{players} empatan en influencia ({influence}) y en oro: el reino queda en ruinas y nadie gana.",
    "keep": "{player} guarda {card} para la próxima batalla.",
}

#: The table an engine offers for this language (see pnp.rulebook.component.phrases).
PHRASES = SPANISH
