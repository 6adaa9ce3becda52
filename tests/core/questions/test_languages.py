"""core/questions/compiler.py in German, French, Spanish and Russian: the same small home named
in each language, the common questions asked the way a speaker would, answered from the plan.

Each home has two floors, a living room, kitchen and bedroom, lights that are on and off, window
sensors, a front-door lock, temperature sensors and batteries, so every question kind has a
definite answer that the test computes independently of the compiler.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, LexiconSet
from custom_components.context_retrieval.core.questions.answer import answer
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import execute
from custom_components.context_retrieval.core.questions.rows import StateRow
from tests.core.conftest import make_device


@dataclass(frozen=True)
class Names:
    floors: tuple[str, str]
    rooms: tuple[str, str, str]  # living room, kitchen, bedroom (on the upper floor)
    ceiling: str
    lamp: str
    window: str
    door: str
    temperature: str
    battery: str


NAMES = {
    "de": Names(
        ("Erdgeschoss", "Obergeschoss"),
        ("Wohnzimmer", "Küche", "Schlafzimmer"),
        "Deckenlicht",
        "Stehlampe",
        "Fenster",
        "Haustür",
        "Temperatur",
        "Batterie",
    ),
    "fr": Names(
        ("Rez-de-chaussée", "Étage"),
        ("Salon", "Cuisine", "Chambre"),
        "Plafonnier",
        "Lampadaire",
        "Fenêtre",
        "Porte d'entrée",
        "Température",
        "Batterie",
    ),
    "es": Names(
        ("Planta baja", "Planta alta"),
        ("Salón", "Cocina", "Dormitorio"),
        "Luz del techo",
        "Lámpara de pie",
        "Ventana",
        "Puerta principal",
        "Temperatura",
        "Batería",
    ),
    "ru": Names(
        ("Первый этаж", "Второй этаж"),
        ("Гостиная", "Кухня", "Спальня"),
        "Люстра",
        "Торшер",
        "Окно",
        "Входная дверь",
        "Температура",
        "Батарея",
    ),
}

# entity id → (state, unit); the same facts in every language.
STATES = {
    "light.living_ceiling": ("on", None),
    "light.living_lamp": ("off", None),
    "light.kitchen_ceiling": ("on", None),
    "light.bedroom_ceiling": ("on", None),
    "light.bedroom_lamp": ("off", None),
    "binary_sensor.living_window": ("on", None),
    "binary_sensor.kitchen_window": ("off", None),
    "binary_sensor.bedroom_window": ("on", None),
    "lock.front_door": ("locked", None),
    "sensor.living_temperature": ("21.0", "°C"),
    "sensor.kitchen_temperature": ("23.0", "°C"),
    "sensor.bedroom_temperature": ("18.5", "°C"),
    "sensor.living_battery": ("80", "%"),
    "sensor.bedroom_battery": ("9", "%"),
}


def _home(lang: str) -> tuple[DeviceIndex, list[StateRow]]:
    n = NAMES[lang]
    down, up = Floor("down", n.floors[0], (), 0), Floor("up", n.floors[1], (), 1)
    living = Area("living", n.rooms[0], (), "down")
    kitchen = Area("kitchen", n.rooms[1], (), "down")
    bedroom = Area("bedroom", n.rooms[2], (), "up")
    where = {"living": (living, down), "kitchen": (kitchen, down), "bedroom": (bedroom, up)}
    devices = []
    for entity_id in STATES:
        room = next((r for r in where if f".{r}_" in entity_id), "living")
        area, floor = where[room]
        kind = entity_id.split(".", 1)[1].split("_", 1)[1]
        name = {
            "ceiling": n.ceiling,
            "lamp": n.lamp,
            "window": n.window,
            "temperature": f"{n.temperature} {area.name}",
            "battery": f"{n.battery} {area.name}",
        }.get(kind, kind)
        device_class = {"window": "window", "temperature": "temperature", "battery": "battery"}.get(
            kind
        )
        if entity_id == "lock.front_door":
            name, area, floor = n.door, living, down
        devices.append(make_device(entity_id, name, area, floor, device_class=device_class))
    index = DeviceIndex.build(devices, [living, kitchen, bedroom], [down, up], language=lang)
    rows = [
        StateRow.from_device(
            d,
            state=STATES[d.entity_id][0],
            attributes={"unit_of_measurement": STATES[d.entity_id][1]}
            if STATES[d.entity_id][1]
            else {},
        )
        for d in devices
    ]
    return index, rows


LIGHTS_ON = {"light.living_ceiling", "light.kitchen_ceiling", "light.bedroom_ceiling"}
WINDOWS_OPEN = {"binary_sensor.living_window", "binary_sensor.bedroom_window"}

# (language, question, expectation): ("set", ids) rows listed; ("count", n); ("value", id);
# ("avg", number); ("max"/"min", id); ("yes"/"no", None)
QUESTIONS = [
    ("de", "Welche Lichter sind an?", ("set", LIGHTS_ON)),
    ("de", "Wie viele Lampen sind im Obergeschoss eingeschaltet?", ("count", 1)),
    ("de", "Welche Fenster sind offen?", ("set", WINDOWS_OPEN)),
    ("de", "Wie warm ist es in der Küche?", ("value", "sensor.kitchen_temperature")),
    ("de", "Wie hoch ist die Temperatur im Schlafzimmer?", ("value", "sensor.bedroom_temperature")),
    ("de", "Was ist die durchschnittliche Temperatur?", ("avg", 62.5 / 3)),
    ("de", "Ist die Haustür abgeschlossen?", ("yes", None)),
    ("de", "Welche Batterien sind schwach?", ("set", {"sensor.bedroom_battery"})),
    ("de", "Was ist im Wohnzimmer an?", ("set", {"light.living_ceiling"})),
    ("fr", "Quelles lumières sont allumées ?", ("set", LIGHTS_ON)),
    ("fr", "Combien de lampes sont allumées à l'étage ?", ("count", 1)),
    ("fr", "Quelles fenêtres sont ouvertes ?", ("set", WINDOWS_OPEN)),
    ("fr", "Quelle est la température dans la cuisine ?", ("value", "sensor.kitchen_temperature")),
    ("fr", "Quelle est la température moyenne ?", ("avg", 62.5 / 3)),
    ("fr", "Est-ce que la porte d'entrée est verrouillée ?", ("yes", None)),
    ("fr", "Quelles batteries sont faibles ?", ("set", {"sensor.bedroom_battery"})),
    ("fr", "Quelle est la température la plus basse ?", ("min", "sensor.bedroom_temperature")),
    ("es", "¿Qué luces están encendidas?", ("set", LIGHTS_ON)),
    ("es", "¿Cuántas luces están encendidas en la planta alta?", ("count", 1)),
    ("es", "¿Qué ventanas están abiertas?", ("set", WINDOWS_OPEN)),
    ("es", "¿Cuál es la temperatura de la cocina?", ("value", "sensor.kitchen_temperature")),
    ("es", "¿Cuál es la temperatura media?", ("avg", 62.5 / 3)),
    ("es", "¿Está cerrada con llave la puerta principal?", ("yes", None)),
    ("es", "¿Qué baterías están bajas?", ("set", {"sensor.bedroom_battery"})),
    ("es", "¿Cuál es la temperatura más alta?", ("max", "sensor.kitchen_temperature")),
    ("ru", "Какие лампы включены?", ("set", LIGHTS_ON)),
    ("ru", "Сколько света включено на втором этаже?", ("count", 1)),
    ("ru", "Какие окна открыты?", ("set", WINDOWS_OPEN)),
    ("ru", "Какая температура на кухне?", ("value", "sensor.kitchen_temperature")),
    ("ru", "Какая средняя температура?", ("avg", 62.5 / 3)),
    ("ru", "Входная дверь заперта?", ("yes", None)),
    ("ru", "Какие батарейки разряжены?", ("set", {"sensor.bedroom_battery"})),
    ("ru", "Какая самая низкая температура?", ("min", "sensor.bedroom_temperature")),
]


@pytest.mark.parametrize(
    ("lang", "question", "expected"), QUESTIONS, ids=[f"{q[0]}:{q[1]}" for q in QUESTIONS]
)
def test_common_questions_are_answered_in_each_language(
    lexicons: LexiconSet, lang: str, question: str, expected: tuple[str, object]
):
    index, rows = _home(lang)
    compiled = compile_question(question, index, lexicons)
    assert compiled.language == lang
    assert compiled.plan is not None, compiled.reason
    assert compiled.confident, (compiled.reason, compiled.unexplained)
    result = execute(compiled.plan, rows, lexicons.types)
    kind, want = expected
    listed = {r["entity_id"] for r in result.rows}
    if kind == "set":
        assert listed == want
    elif kind == "count":
        assert result.count == want
    elif kind == "value":
        assert listed == {want}
    elif kind == "avg":
        assert result.value == pytest.approx(want)
    elif kind in ("max", "min"):
        assert result.best is not None and result.best["entity_id"] == want
    else:
        assert result.expected is (kind == "yes")
    sentence = answer(compiled.plan, result, lexicons.get(lang))
    assert sentence and "{" not in sentence
