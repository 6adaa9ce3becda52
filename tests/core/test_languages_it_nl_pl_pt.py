"""Italian, Dutch, Polish and Portuguese run on the same engine as the other languages.

Each is a hand-written lexicon file (`core/base/lexicons/<lang>.json`) plus a small home in the
language (`tests/data/homes/home_<lang>.json`: two floors, six rooms, a name shared by three
rooms, aliases, a label). The cases are the same kinds as in `test_languages.py`, with what each
language adds: Italian articles fused with a preposition ("dell'ingresso"), Dutch separable
verbs and compounds ("slaapkamerlampen"), Polish cases ("w sypialni" is the room "Sypialnia",
"lampę stojącą" the lamp "Lampa stojąca"), Portuguese contractions ("da cozinha").
"""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import (
    Area,
    DeviceIndex,
    default_lexicons,
    load_home,
    retrieve,
)
from tests.core.conftest import make_device
from tests.core.test_languages import (
    HOMES,
    NOTHING,
    Pick,
    Turn,
    ask,
    case,
    run_turns,
    sel,
)

LANGUAGES = ("it", "nl", "pl", "pt")


@pytest.fixture(scope="module")
def indexes() -> dict[str, DeviceIndex]:
    out = {}
    for language in LANGUAGES:
        home = load_home(HOMES / f"home_{language}.json")
        assert home.language == language and not home.warnings
        out[language] = DeviceIndex.build(
            home.devices, home.areas, home.floors, language=home.language
        )
    return out


# ---- Italian ----------------------------------------------------------------------------------

IT_GROUND = {
    "light.soggiorno_soffitto",
    "light.soggiorno_piantana",
    "light.soggiorno_striscia",
    "light.cucina_soffitto",
    "light.cucina_sottopensile",
    "light.ingresso_applique",
}
IT_UPSTAIRS = {
    "light.camera_soffitto",
    "light.camera_comodino",
    "light.cameretta_lucina",
    "light.bagno_specchio",
}
IT_SOFFITTO = ("light.soggiorno_soffitto", "light.cucina_soffitto", "light.camera_soffitto")
IT_CUCINA = sel("light.cucina_soffitto", "light.cucina_sottopensile")
IT_TV = sel("media_player.soggiorno_tv")

ITALIAN = [
    case("it", "named", ("Accendi la piantana", sel("light.soggiorno_piantana"))),
    case("it", "named-article", ("Spegni la macchina del caffè", sel("switch.cucina_caffe"))),
    case("it", "alias", ("Accendi la lampada da lettura", sel("light.soggiorno_piantana"))),
    case(
        "it",
        "all-lights-in-room",
        (
            "Spegni tutte le luci della camera da letto",
            sel("light.camera_soffitto", "light.camera_comodino"),
        ),
    ),
    case("it", "floor-by-name", ("Spegni le luci al primo piano", frozenset(IT_UPSTAIRS))),
    case("it", "floor-relative", ("Spegni le luci di sopra", frozenset(IT_UPSTAIRS))),
    case(
        "it",
        "except-tranne",
        (
            "Spegni tutte le luci tranne il soggiorno",
            frozenset(IT_GROUND | IT_UPSTAIRS)
            - {"light.soggiorno_soffitto", "light.soggiorno_piantana", "light.soggiorno_striscia"},
        ),
    ),
    case(
        "it",
        "except-those-of-a-room",
        (
            "Spegni tutte le luci tranne quelle della cucina",
            frozenset(IT_GROUND | IT_UPSTAIRS) - IT_CUCINA,
        ),
    ),
    case(
        "it",
        "shared-name-asks-then-ordinal",
        ("Accendi la luce soffitto", ask(*IT_SOFFITTO)),
        ("la seconda", Pick(1)),
    ),
    case(
        "it",
        "shared-name-asks-then-room",
        ("Accendi la luce soffitto", ask(*IT_SOFFITTO)),
        ("quella della cucina", sel("light.cucina_soffitto")),
    ),
    case(
        "it",
        "pronoun-follow-up",
        ("Accendi il televisore", IT_TV),
        ("abbassa il volume", IT_TV),
        ("spegnilo", IT_TV),
    ),
    case(
        "it",
        "question-lock",
        ("La porta d'ingresso è chiusa a chiave?", sel("lock.porta_ingresso")),
    ),
    case(
        "it",
        "question-window",
        ("C'è una finestra aperta?", sel("binary_sensor.cameretta_finestra")),
    ),
    case(
        "it",
        "polite-filler",
        ("Per favore, potresti accendere la luce in cucina? Grazie", IT_CUCINA),
    ),
    case("it", "typo", ("Spegni la machina del caffè", sel("switch.cucina_caffe"))),
    case("it", "missing-accent", ("Spegni la macchina del caffe", sel("switch.cucina_caffe"))),
    case("it", "unknown-room", ("Accendi la luce in piscina", NOTHING)),
    case("it", "here", Turn("Spegni la luce qui", sel("light.cameretta_lucina"), area="cameretta")),
    case(
        "it",
        "two-commands",
        (
            "Accendi la striscia LED e poi spegni la macchina del caffè",
            sel("light.soggiorno_striscia", "switch.cucina_caffe"),
        ),
    ),
    case("it", "label-and-type", ("Accendi le luci di Natale", sel("light.soggiorno_striscia"))),
    case("it", "elided-article", ("Accendi la luce dell'ingresso", sel("light.ingresso_applique"))),
    case("it", "vacuum-dock", ("Manda il robot alla base", sel("vacuum.robot"))),
    case(
        "it",
        "blinds-in-room",
        ("Abbassa le tapparelle della camera da letto", sel("cover.camera_tapparella")),
    ),
    case("it", "person-at-home", ("Giulia è a casa?", sel("person.giulia"))),
]

# ---- Dutch ------------------------------------------------------------------------------------

NL_UPSTAIRS = {
    "light.slaapkamer_plafond",
    "light.slaapkamer_nachtkast",
    "light.kinderkamer_nachtlampje",
    "light.badkamer_spiegel",
}
NL_WOONKAMER = {"light.woonkamer_plafond", "light.woonkamer_staande", "light.woonkamer_slinger"}
NL_KEUKEN = sel("light.keuken_plafond", "light.keuken_werkblad")
NL_LIGHTS = NL_UPSTAIRS | NL_WOONKAMER | NL_KEUKEN | {"light.hal"}
NL_SLAAPKAMER = sel("light.slaapkamer_plafond", "light.slaapkamer_nachtkast")
NL_PLAFOND = ("light.woonkamer_plafond", "light.keuken_plafond", "light.slaapkamer_plafond")
NL_TV = sel("media_player.woonkamer_tv")

DUTCH = [
    case("nl", "separable-verb", ("Zet de staande lamp aan", sel("light.woonkamer_staande"))),
    case("nl", "infinitive", ("Koffiezetapparaat uitzetten", sel("switch.keuken_koffie"))),
    case("nl", "alias", ("Doe de leeslamp aan", sel("light.woonkamer_staande"))),
    case("nl", "all-lights-in-room", ("Doe alle lampen in de slaapkamer uit", NL_SLAAPKAMER)),
    case("nl", "compound-room-and-type", ("Zet de slaapkamerlampen uit", NL_SLAAPKAMER)),
    case(
        "nl",
        "floor-by-name",
        ("Doe het licht op de eerste verdieping uit", frozenset(NL_UPSTAIRS)),
    ),
    case("nl", "floor-relative", ("Zet boven alle lampen uit", frozenset(NL_UPSTAIRS))),
    case(
        "nl",
        "except-behalve",
        ("Zet alle lampen uit behalve in de woonkamer", frozenset(NL_LIGHTS - NL_WOONKAMER)),
    ),
    case(
        "nl",
        "shared-name-asks-then-ordinal",
        ("Zet de plafondlamp aan", ask(*NL_PLAFOND)),
        ("de tweede", Pick(1)),
    ),
    case(
        "nl",
        "shared-name-asks-then-room",
        ("Zet de plafondlamp aan", ask(*NL_PLAFOND)),
        ("die in de keuken", sel("light.keuken_plafond")),
    ),
    case(
        "nl",
        "pronoun-follow-up",
        ("Zet de televisie aan", NL_TV),
        ("Zet hem zachter", NL_TV),
        ("Zet hem weer uit", NL_TV),
    ),
    case("nl", "question-lock", ("Is de voordeur op slot?", sel("lock.voordeur"))),
    case(
        "nl", "question-window", ("Staat er een raam open?", sel("binary_sensor.kinderkamer_raam"))
    ),
    case(
        "nl",
        "polite-filler",
        ("Kun je alsjeblieft het licht in de keuken aandoen? Dank je!", NL_KEUKEN),
    ),
    case("nl", "typo", ("Zet het koffiezetaparaat uit", sel("switch.keuken_koffie"))),
    case("nl", "unknown-room", ("Doe het licht bij het zwembad aan", NOTHING)),
    case(
        "nl",
        "here",
        Turn("Doe hier het licht uit", sel("light.kinderkamer_nachtlampje"), area="kinderkamer"),
    ),
    case(
        "nl",
        "two-commands",
        (
            "Zet de lichtslinger aan en daarna het koffiezetapparaat uit",
            sel("light.woonkamer_slinger", "switch.keuken_koffie"),
        ),
    ),
    case("nl", "particle-close", ("Doe het gordijn dicht", sel("cover.woonkamer_gordijn"))),
    case(
        "nl",
        "particle-down-in-room",
        ("Doe de rolluiken in de slaapkamer omlaag", sel("cover.slaapkamer_rolluik")),
    ),
    case(
        "nl",
        "vacuum-dock",
        ("Stuur de robotstofzuiger terug naar het laadstation", sel("vacuum.robot")),
    ),
]

# ---- Polish -----------------------------------------------------------------------------------

PL_UPSTAIRS = {
    "light.sypialnia_sufit",
    "light.sypialnia_nocna",
    "light.dzieci_gwiazdki",
    "light.lazienka_lustro",
}
PL_SALON = {"light.salon_sufit", "light.salon_stojaca", "light.salon_lampki"}
PL_KUCHNIA = sel("light.kuchnia_sufit", "light.kuchnia_blat")
PL_LIGHTS = PL_UPSTAIRS | PL_SALON | PL_KUCHNIA | {"light.przedpokoj_kinkiet"}
PL_SUFIT = ("light.salon_sufit", "light.kuchnia_sufit", "light.sypialnia_sufit")
PL_TV = sel("media_player.salon_tv")

POLISH = [
    case("pl", "accusative-name", ("Włącz lampę stojącą", sel("light.salon_stojaca"))),
    case("pl", "named", ("Wyłącz ekspres do kawy", sel("switch.kuchnia_ekspres"))),
    case("pl", "alias-accusative", ("Zapal lampę do czytania", sel("light.salon_stojaca"))),
    case(
        "pl",
        "locative-room",
        (
            "Wyłącz wszystkie światła w sypialni",
            sel("light.sypialnia_sufit", "light.sypialnia_nocna"),
        ),
    ),
    case("pl", "locative-room-kuchnia", ("Zgaś światło w kuchni", PL_KUCHNIA)),
    case("pl", "locative-ce", ("Włącz światło w łazience", sel("light.lazienka_lustro"))),
    case(
        "pl",
        "locative-of-two-words",
        ("Włącz światło w pokoju dziecięcym", sel("light.dzieci_gwiazdki")),
    ),
    case(
        "pl",
        "floor-locative",
        ("Wyłącz światła na pierwszym piętrze", frozenset(PL_UPSTAIRS)),
    ),
    case("pl", "floor-relative", ("Wyłącz światła na górze", frozenset(PL_UPSTAIRS))),
    case(
        "pl",
        "except-genitive",
        ("Wyłącz wszystkie światła oprócz salonu", frozenset(PL_LIGHTS - PL_SALON)),
    ),
    case(
        "pl",
        "shared-name-asks-then-ordinal",
        ("Włącz lampę sufitową", ask(*PL_SUFIT)),
        ("drugą", Pick(1)),
    ),
    case(
        "pl",
        "shared-name-asks-then-room",
        ("Włącz lampę sufitową", ask(*PL_SUFIT)),
        ("tę w kuchni", sel("light.kuchnia_sufit")),
    ),
    case(
        "pl",
        "pronoun-follow-up",
        ("Włącz telewizor", PL_TV),
        ("Ścisz go", PL_TV),
        ("Wyłącz go", PL_TV),
    ),
    case(
        "pl",
        "question-lock",
        ("Czy drzwi wejściowe są zamknięte na klucz?", sel("lock.drzwi_wejsciowe")),
    ),
    case(
        "pl", "question-window", ("Czy jakieś okno jest otwarte?", sel("binary_sensor.dzieci_okno"))
    ),
    case(
        "pl",
        "polite-filler",
        ("Proszę, czy możesz włączyć światło w kuchni? Dziękuję", PL_KUCHNIA),
    ),
    case("pl", "typo", ("Wyłącz ekspers do kawy", sel("switch.kuchnia_ekspres"))),
    case("pl", "unknown-room", ("Włącz światło przy basenie", NOTHING)),
    case(
        "pl",
        "here",
        Turn("Wyłącz tu światło", sel("light.dzieci_gwiazdki"), area="pokoj_dzieci"),
    ),
    case(
        "pl",
        "two-commands",
        (
            "Włącz lampki choinkowe, a potem wyłącz ekspres do kawy",
            sel("light.salon_lampki", "switch.kuchnia_ekspres"),
        ),
    ),
    case("pl", "blinds-in-room", ("Zasłoń rolety w sypialni", sel("cover.sypialnia_roleta"))),
    case("pl", "vacuum-dock", ("Odeślij odkurzacz do stacji dokującej", sel("vacuum.robot"))),
]

# ---- Portuguese -------------------------------------------------------------------------------

PT_UPSTAIRS = {
    "light.quarto_teto",
    "light.quarto_cabeceira",
    "light.criancas_presenca",
    "light.banho_espelho",
}
PT_SALA = {"light.sala_teto", "light.sala_candeeiro", "light.sala_fita"}
PT_COZINHA = sel("light.cozinha_teto", "light.cozinha_bancada")
PT_LIGHTS = PT_UPSTAIRS | PT_SALA | PT_COZINHA | {"light.entrada_aplique"}
PT_TETO = ("light.sala_teto", "light.cozinha_teto", "light.quarto_teto")
PT_TV = sel("media_player.sala_tv")

PORTUGUESE = [
    case("pt", "named", ("Liga o candeeiro de pé", sel("light.sala_candeeiro"))),
    case("pt", "named-contraction", ("Desliga a máquina de café", sel("switch.cozinha_cafe"))),
    case("pt", "alias", ("Acende a luz de leitura", sel("light.sala_candeeiro"))),
    case(
        "pt",
        "all-lights-in-room",
        (
            "Apaga todas as luzes do quarto principal",
            sel("light.quarto_teto", "light.quarto_cabeceira"),
        ),
    ),
    case("pt", "floor-by-name", ("Desliga as luzes do primeiro andar", frozenset(PT_UPSTAIRS))),
    case("pt", "floor-relative", ("Apaga as luzes lá em cima", frozenset(PT_UPSTAIRS))),
    case(
        "pt",
        "except-exceto",
        ("Desliga todas as luzes exceto na sala de estar", frozenset(PT_LIGHTS - PT_SALA)),
    ),
    case(
        "pt",
        "shared-name-asks-then-ordinal",
        ("Acende a luz do teto", ask(*PT_TETO)),
        ("a segunda", Pick(1)),
    ),
    case(
        "pt",
        "shared-name-asks-then-room",
        ("Acende a luz do teto", ask(*PT_TETO)),
        ("a da cozinha", sel("light.cozinha_teto")),
    ),
    case(
        "pt",
        "pronoun-follow-up",
        ("Liga a televisão", PT_TV),
        ("Baixa o volume", PT_TV),
        ("Desliga-a", PT_TV),
    ),
    case("pt", "question-lock", ("A porta da frente está trancada?", sel("lock.porta_frente"))),
    case(
        "pt", "question-window", ("Há alguma janela aberta?", sel("binary_sensor.criancas_janela"))
    ),
    case(
        "pt",
        "polite-filler",
        ("Por favor, podes acender a luz da cozinha? Obrigado", PT_COZINHA),
    ),
    case("pt", "missing-accent", ("Desliga a maquina de café", sel("switch.cozinha_cafe"))),
    case("pt", "unknown-room", ("Acende a luz da piscina", NOTHING)),
    case(
        "pt",
        "here",
        Turn("Apaga a luz aqui", sel("light.criancas_presenca"), area="quarto_criancas"),
    ),
    case(
        "pt",
        "two-commands",
        (
            "Liga a fita LED e depois desliga a máquina de café",
            sel("light.sala_fita", "switch.cozinha_cafe"),
        ),
    ),
    case("pt", "label-and-type", ("Acende as luzes de Natal", sel("light.sala_fita"))),
    case("pt", "vacuum-dock", ("Manda o aspirador para a base", sel("vacuum.robo"))),
    case(
        "pt",
        "blinds-in-room",
        ("Fecha os estores do quarto principal", sel("cover.quarto_estore")),
    ),
    case(
        "pt",
        "room-of-several-words",
        ("Desliga as luzes da casa de banho", sel("light.banho_espelho")),
    ),
]


@pytest.mark.parametrize(("language", "turns"), ITALIAN + DUTCH + POLISH + PORTUGUESE)
def test_utterances_select_the_right_entities(
    language: str, turns: tuple[Turn, ...], indexes: dict[str, DeviceIndex]
):
    run_turns(language, turns, indexes[language])


# ---- the lexicon files: inflection ------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "forms"),
    [
        ("it", ["luce", "luci"]),
        ("it", ["lampada", "lampade"]),
        ("it", ["ventilatore", "ventilatori"]),
        ("it", ["televisione", "televisioni"]),
        ("it", ["lampadario", "lampadari"]),
        ("nl", ["lamp", "lampen"]),
        ("nl", ["keuken", "keukens"]),
        ("nl", ["raam", "ramen"]),
        ("nl", ["verdieping", "verdiepingen"]),
        ("nl", ["radio", "radio's"]),
        ("pl", ["kuchnia", "kuchni", "kuchnię", "kuchnią"]),
        ("pl", ["sypialnia", "sypialni", "sypialnię"]),
        ("pl", ["salon", "salonu", "salonie", "salonem"]),
        ("pl", ["łazienka", "łazience", "łazienki", "łazienkę"]),
        ("pl", ["pokój", "pokoju", "pokoje"]),
        ("pl", ["roleta", "rolety", "rolecie"]),
        ("pl", ["piętro", "piętrze", "piętra"]),
        ("pl", ["gabinet", "gabinecie"]),
        ("pl", ["główny", "głównym", "głównej", "główna"]),
        ("pt", ["luz", "luzes"]),
        ("pt", ["portão", "portões"]),
        ("pt", ["interruptor", "interruptores"]),
        ("pt", ["canal", "canais"]),
        ("pt", ["porta", "portas"]),
    ],
)
def test_inflected_forms_share_one_key(language: str, forms: list[str]):
    lex = default_lexicons().get(language)
    assert len({lex.key(f.casefold()) for f in forms}) == 1, [lex.key(f.casefold()) for f in forms]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("it", ["il", "la", "gli", "nel", "del", "sul"]),
        ("nl", ["de", "het", "aan", "uit", "huis", "gas", "open"]),
        ("pl", ["w", "na", "do", "nie", "dom"]),
        ("pt", ["o", "a", "os", "do", "da", "mais", "gás"]),
    ],
)
def test_short_words_keep_their_shape(language: str, words: list[str]):
    lex = default_lexicons().get(language)
    assert [lex.key(w) for w in words] == words


@pytest.mark.parametrize(
    ("language", "separate"),
    [
        ("it", ["accendi", "accensione"]),
        ("nl", ["keuken", "keukenlamp"]),
        ("pl", ["włącz", "włącznik"]),
        ("pl", ["otwórz", "otwór"]),
        ("pt", ["quarto", "quatro"]),
    ],
)
def test_different_words_keep_different_keys(language: str, separate: list[str]):
    lex = default_lexicons().get(language)
    keys = [lex.key(w) for w in separate]
    assert len(set(keys)) == len(keys), keys


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("it-IT", "it"),
        ("it_CH", "it"),
        ("nl-NL", "nl"),
        ("nl-BE", "nl"),
        ("pl-PL", "pl"),
        ("pt-BR", "pt"),
        ("pt_PT", "pt"),
        ("pt", "pt"),
    ],
)
def test_regional_tags_pick_the_language(tag: str, language: str):
    assert default_lexicons().get(tag).language == language


# ---- Italian cover words, as Home Assistant's Italian sentences class them ----------------------


def _it_covers_home() -> DeviceIndex:
    living = Area("soggiorno", "Soggiorno")
    devices = [
        make_device("cover.roller", "Finestra Grande", living, device_class="shutter"),
        make_device("cover.slats", "Oscurante", living, device_class="blind"),
        make_device("cover.shade", "Rullo", living, device_class="shade"),
    ]
    return DeviceIndex.build(devices, [living], language="it")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("chiudi le tapparelle in soggiorno", {"cover.roller"}),  # a roller shutter
        ("abbassa la tapparella", {"cover.roller"}),
        ("chiudi le persiane", {"cover.slats"}),  # slatted blinds
        ("chiudi le veneziane", {"cover.shade"}),  # Home Assistant: a shade
    ],
)
def test_italian_cover_words_name_the_classes_home_assistant_gives_them(text, expected):
    selected = {e for r in retrieve(text, _it_covers_home(), language="it") for e in r.selected_ids}
    assert selected == expected
