"""core/retrieval/kind_names.py: a name made of type words said as the kind, and the devices
words still name exactly when they are read as a type."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, retrieve
from custom_components.context_retrieval.core.base.models import Mention
from custom_components.context_retrieval.core.retrieval.kind_names import (
    NAME_READING_LISTED,
    describes_kind,
    name_reading,
)
from tests.core.conftest import make_device

GROUND = Floor("ground", "一楼", ("一层",))
UPPER = Floor("upper", "二楼", ())
DINING = Area("dining", "餐厅", (), "ground")
GYM = Area("gym", "健身房", (), "ground")
STUDY = Area("study", "书房", (), "upper")


def _motion(entity_id: str, name: str, area: Area, floor: Floor) -> object:
    return make_device(entity_id, name, area, floor, device_class="motion")


def _sensor_home(dining_second: str = "人体感应") -> DeviceIndex:
    devices = [
        _motion("binary_sensor.dining_a", "人体传感器", DINING, GROUND),
        _motion("binary_sensor.dining_b", dining_second, DINING, GROUND),
        make_device("sensor.dining_temp", "温度传感器", DINING, GROUND, device_class="temperature"),
        _motion("binary_sensor.gym", "人体感应", GYM, GROUND),
        _motion("binary_sensor.study", "人体传感器", STUDY, UPPER),
    ]
    return DeviceIndex.build(devices, [DINING, GYM, STUDY], [GROUND, UPPER], language="zh")


def _selected(text: str, index: DeviceIndex) -> set[str]:
    return {e for r in retrieve(text, index, language="zh") for e in r.selected_ids}


def test_a_name_of_type_words_in_a_room_with_another_of_that_kind_means_the_kind():
    # "人体感应" is a motion sensor by its own words too: both are the room's motion sensors.
    assert _selected("看看餐厅的人体传感器", _sensor_home()) == {
        "binary_sensor.dining_a",
        "binary_sensor.dining_b",
    }


def test_a_numbered_copy_alone_does_not_make_a_kind():
    assert _selected("看看餐厅的人体传感器", _sensor_home("人体传感器2")) == {
        "binary_sensor.dining_a"
    }


def test_a_device_of_the_kind_whose_name_says_no_type_word_does_not_make_a_kind():
    assert _selected("看看餐厅的人体传感器", _sensor_home("门口")) == {"binary_sensor.dining_a"}


def test_on_a_floor_the_kind_is_every_device_of_it_there():
    assert _selected("一楼的人体传感器有没有触发", _sensor_home()) == {
        "binary_sensor.dining_a",
        "binary_sensor.dining_b",
        "binary_sensor.gym",
    }


# ---- a name read as its type still names its device -------------------------------------------

LIVING = Area("living", "客厅")


def _cover_home() -> DeviceIndex:
    devices = [
        make_device("cover.venetian", "百叶窗", LIVING, device_class="blind"),
        # Its owner calls the roller shade 卷帘, which Home Assistant's words make a blind.
        make_device("cover.roller", "卷帘", LIVING, device_class="shade"),
        make_device("cover.drapes", "窗帘", LIVING, device_class="curtain"),
    ]
    return DeviceIndex.build(devices, [LIVING], language="zh")


def test_a_class_word_that_is_a_name_keeps_the_one_named_as_the_other_reading():
    (result,) = retrieve("打开客厅的卷帘", _cover_home(), language="zh")
    assert result.selected_ids == ["cover.venetian"]  # the blind class, as Home Assistant reads
    assert result.meta.name_reading == ["cover.roller"]


def test_every_one_of_a_class_keeps_the_one_named_as_the_other_reading():
    (result,) = retrieve("打开所有的卷帘", _cover_home(), language="zh")
    assert result.selected_ids == ["cover.venetian"]
    assert result.meta.name_reading == ["cover.roller"]


def test_a_name_read_as_itself_has_no_other_reading():
    (result,) = retrieve("打开客厅的窗帘", _cover_home(), language="zh")
    assert result.selected_ids == ["cover.drapes"]
    assert result.meta.name_reading is None


def test_the_name_reading_keeps_only_exact_names_in_scope_after_what_was_there():
    exact = Mention("卷帘", frozenset({"cover.b", "cover.a", "cover.elsewhere"}))
    inflected = Mention("shades", frozenset({"cover.c"}), exact=False)
    pool = {"cover.a", "cover.b", "cover.c", "light.x"}
    assert name_reading([exact, inflected], pool, ["light.x"]) == [
        "light.x",
        "cover.a",
        "cover.b",
    ]
    many = Mention("灯", frozenset(f"light.l{n:02d}" for n in range(40)))
    listed = name_reading([many], {f"light.l{n:02d}" for n in range(40)})
    assert listed == [f"light.l{n:02d}" for n in range(NAME_READING_LISTED)]


def test_a_single_type_word_said_as_a_name_has_no_company_in_other_words_of_its_class():
    # 卷帘 and 百叶窗 are both blinds in Home Assistant's words, but different names: a
    # question about the 卷帘 asks about the one called so.
    assert _selected("客厅的卷帘开着吗", _cover_home()) == {"cover.roller"}


def test_only_a_name_of_several_type_words_and_nothing_else_describes_a_kind():
    assert describes_kind(
        Mention("人体传感器", types_inside=("motion", "sensor"), only_type_words=True)
    )
    assert not describes_kind(Mention("卷帘", types_inside=("blind",), only_type_words=True))
    assert not describes_kind(Mention("餐厅人体传感器", types_inside=("motion", "sensor")))


# ---- said of several ---------------------------------------------------------------------------

RESTAURANT = Area("restaurant", "Restaurant")


def _en_sensor_home() -> DeviceIndex:
    devices = [
        make_device("binary_sensor.a", "Motion Sensor", RESTAURANT, device_class="motion"),
        make_device("binary_sensor.b", "Motion", RESTAURANT, device_class="motion"),
        make_device("binary_sensor.c", "Doorway", RESTAURANT, device_class="motion"),
        make_device("sensor.t", "Temperature Sensor", RESTAURANT, device_class="temperature"),
    ]
    return DeviceIndex.build(devices, [RESTAURANT], language="en")


def _selected_en(text: str, index: DeviceIndex) -> set[str]:
    return {e for r in retrieve(text, index, language="en") for e in r.selected_ids}


def test_a_name_that_describes_a_kind_said_in_the_plural_is_the_kind():
    index = _en_sensor_home()
    every = {"binary_sensor.a", "binary_sensor.b", "binary_sensor.c"}
    assert _selected_en("check the motion sensors in the restaurant", index) == every
    assert _selected_en("check every motion sensor in the restaurant", index) == every


def test_a_name_that_describes_a_kind_said_of_one_is_the_one_named():
    index = _en_sensor_home()
    assert _selected_en("check the motion sensor in the restaurant", index) == {"binary_sensor.a"}


def test_a_name_plural_as_written_said_as_written_is_the_one_named():
    # "Window Blinds" is plural in its own name: said so, it is that cover, not every
    # window-class or blind-class cover of the room.
    lounge = Area("lounge", "Lounge")
    index = DeviceIndex.build(
        [
            make_device("cover.window_blinds", "Window Blinds", lounge, device_class="blind"),
            make_device("cover.blackout", "Blackout Blinds", lounge, device_class="blind"),
            make_device("cover.side", "Side Window", lounge, device_class="window"),
        ],
        [lounge],
        language="en",
    )
    assert _selected_en("close the lounge window blinds", index) == {"cover.window_blinds"}
    assert _selected_en("set the lounge window blinds to 30 percent", index) == {
        "cover.window_blinds"
    }
