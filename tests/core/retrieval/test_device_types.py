"""core/retrieval/device_types.py: type words select by domain and device class, class first."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from tests.core.conftest import make_device

LIVING = Area("living", "Living Room")
BEDROOM = Area("bedroom", "Bedroom")


def _selected(text: str, index: DeviceIndex, **kwargs: object) -> set[str]:
    return {e for r in retrieve(text, index, **kwargs) for e in r.selected_ids}  # type: ignore[arg-type]


def _covers_home() -> DeviceIndex:
    devices = [
        make_device("cover.drapes", "Drapes", LIVING, device_class="curtain"),
        # A blind its owner named after a curtain: the class says what it is.
        make_device("cover.bedroom_curtain", "Bedroom Curtain", BEDROOM, device_class="blind"),
        make_device("cover.roller", "Roller", BEDROOM, device_class="blind"),
        make_device("cover.storm", "Storm Panels", LIVING, device_class="shutter"),
        make_device("cover.patio", "Patio Door", LIVING, device_class="door"),
        make_device("lock.front", "Front Door", LIVING),
        make_device("cover.garage_door", "Garage Door", LIVING, device_class="gate"),
        make_device("cover.overhead", "Overhead Door", LIVING, device_class="garage"),
        make_device("cover.skylight", "Skylight", LIVING, device_class="window"),
        make_device(
            "binary_sensor.window_contact", "Window Contact", LIVING, device_class="window"
        ),
    ]
    return DeviceIndex.build(devices, [LIVING, BEDROOM], language="en")


def test_the_class_decides_before_a_name_that_contains_the_type_word():
    index = _covers_home()
    assert _selected("close the curtains", index) == {"cover.drapes"}


def test_a_name_counts_as_the_type_when_no_device_has_the_class():
    index = DeviceIndex.build(
        [
            make_device("cover.bedroom_curtain", "Bedroom Curtain", BEDROOM, device_class="blind"),
            make_device("cover.roller", "Roller", BEDROOM, device_class="blind"),
        ],
        [BEDROOM],
        language="en",
    )
    assert _selected("close the curtains", index) == {"cover.bedroom_curtain"}


def test_blinds_and_shutters_are_different_classes():
    index = _covers_home()
    assert _selected("close the shutters", index) == {"cover.storm"}
    assert _selected("close the blinds", index) == {"cover.bedroom_curtain", "cover.roller"}


def test_blinds_fall_back_to_shutters_when_the_home_has_no_blinds():
    index = DeviceIndex.build(
        [make_device("cover.storm", "Storm Panels", LIVING, device_class="shutter")],
        [LIVING],
        language="en",
    )
    assert _selected("close the blinds", index) == {"cover.storm"}


def test_shutter_words_of_other_languages_name_the_shutter_class():
    index = _covers_home()
    assert _selected("ferme les volets", index, language="fr") == {"cover.storm"}
    assert _selected("schließe die Rollläden", index, language="de") == {"cover.storm"}


def test_a_door_that_must_lock_is_the_lock_and_one_that_must_close_is_the_cover():
    index = _covers_home()
    assert _selected("lock the door", index) == {"lock.front"}
    assert _selected("close the door", index) == {"cover.patio"}


def test_a_question_about_windows_covers_every_window_a_command_only_those_that_move():
    index = _covers_home()
    assert _selected("are the windows open", index) == {
        "cover.skylight",
        "binary_sensor.window_contact",
    }
    assert _selected("close the windows", index) == {"cover.skylight"}


def test_a_state_the_type_never_has_leaves_the_type_alone():
    # "燈是開著的": 開著 is open/closed, which a light never is; the lights are still meant.
    kitchen = Area("kitchen", "廚房")
    index = DeviceIndex.build(
        [
            make_device("light.ceiling", "吸頂燈", kitchen),
            make_device("cover.door", "車庫門", kitchen, device_class="garage"),
        ],
        [kitchen],
        language="zh",
    )
    assert _selected("廚房有任何燈是開著的嗎？", index) == {"light.ceiling"}


def test_a_state_that_names_a_class_of_the_types_domain_narrows_to_it():
    index = DeviceIndex.build(
        [
            make_device("binary_sensor.phone", "Phone", LIVING, device_class="battery_charging"),
            make_device("binary_sensor.bat", "Remote", LIVING, device_class="battery"),
        ],
        [LIVING],
        language="en",
    )
    assert _selected("which batteries are charging", index) == {"binary_sensor.phone"}


def test_garage_doors_are_the_garage_covers_before_the_garage_door_sensors():
    garage = Area("garage", "Garage")
    index = DeviceIndex.build(
        [
            make_device("cover.main", "Main", garage, device_class="garage"),
            make_device("cover.side", "Side", garage, device_class="garage"),
            make_device("binary_sensor.tilt", "Tilt", garage, device_class="garage_door"),
        ],
        [garage],
        language="en",
    )
    assert _selected("are any garage doors open", index) == {"cover.main", "cover.side"}
    assert _selected("which garage doors are open in the garage", index) == {
        "cover.main",
        "cover.side",
    }


def test_garage_door_sensors_answer_when_no_cover_is_a_garage_door():
    garage = Area("garage", "Garage")
    index = DeviceIndex.build(
        [
            make_device("cover.blind", "Blind", garage, device_class="blind"),
            make_device("binary_sensor.tilt", "Tilt", garage, device_class="garage_door"),
        ],
        [garage],
        language="en",
    )
    assert _selected("are any garage doors open", index) == {"binary_sensor.tilt"}


def _air_home(*classes: str | None) -> DeviceIndex:
    devices = [
        make_device(f"humidifier.h{k}", f"Unit {k}", BEDROOM, device_class=c)
        for k, c in enumerate(classes)
    ]
    return DeviceIndex.build(devices, [LIVING, BEDROOM], language="en")


def test_a_dehumidifier_is_never_a_humidifier():
    # "turn off the dehumidifier" in a home with one humidifier switched the humidifier off.
    assert _selected("turn off the dehumidifier", _air_home("humidifier")) == set()
    assert _selected("关掉除湿机", _air_home("humidifier")) == set()


def test_a_dehumidifier_is_the_humidifier_domains_dehumidifier_class():
    index = _air_home("humidifier", "dehumidifier")
    assert _selected("turn off the dehumidifier", index) == {"humidifier.h1"}
    assert _selected("schalte den Luftentfeuchter aus", index) == {"humidifier.h1"}
    assert _selected("turn off the humidifiers", index) >= {"humidifier.h0"}


def _heating_home() -> DeviceIndex:
    kitchen = Area("kitchen", "Kitchen")
    devices = [
        make_device("climate.living", "Living Thermostat", LIVING),
        make_device("climate.bedroom", "Bedroom Radiator", BEDROOM),
        make_device("water_heater.boiler", "Boiler", kitchen),
    ]
    return DeviceIndex.build(devices, [LIVING, BEDROOM, kitchen], language="en")


def test_heaters_are_the_climate_devices_before_a_water_heater():
    # "turn off the heaters" switched the hot water off with the heating.
    index = _heating_home()
    assert _selected("turn off the heaters", index) == {"climate.living", "climate.bedroom"}
    assert _selected("关掉所有取暖器", index) == {"climate.living", "climate.bedroom"}


def test_a_water_heater_is_the_heater_of_a_room_with_no_other():
    assert _selected("turn off the heater in the kitchen", _heating_home()) == {
        "water_heater.boiler"
    }


def _locks_home(*names: str) -> DeviceIndex:
    devices = [make_device(f"lock.l{k}", name, LIVING) for k, name in enumerate(names)]
    return DeviceIndex.build(devices, [LIVING, BEDROOM], language="en")


def test_the_doors_to_lock_are_the_locks_named_door_not_the_safe():
    # "unlock all the doors" listed the study's safe among them.
    index = _locks_home("Front Door", "Side Door", "Safe")
    assert _selected("lock all the doors", index) == {"lock.l0", "lock.l1"}


def test_locks_none_of_which_is_named_door_are_the_doors_locks():
    index = _locks_home("Yale", "Nuki")
    assert _selected("lock all the doors", index) == {"lock.l0", "lock.l1"}
