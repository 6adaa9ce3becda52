"""The entities a synthetic home is made of: each kind with its domain, device class and the
names it goes by in English and Chinese."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Kind:
    """One kind of entity a room can hold."""

    key: str  # entity-id stem
    domain: str
    device_class: str | None
    en: tuple[str, ...]  # name variants
    zh: tuple[str, ...]
    en_aliases: tuple[str, ...] = ()
    zh_aliases: tuple[str, ...] = ()
    room_prefix: bool = False  # the name may start with the room's name ("Kitchen Pendant")
    max_per_area: int = 0  # 0 = any number
    slot: str | None = None  # kinds sharing a slot: at most one of them per area
    numbered: bool = False  # always carries a number ("Hue Bulb 7")


def _k(
    key: str,
    domain: str,
    device_class: str | None,
    en: Sequence[str],
    zh: Sequence[str],
    en_aliases: Sequence[str] = (),
    zh_aliases: Sequence[str] = (),
    **kw: Any,
) -> Kind:
    return Kind(
        key, domain, device_class, tuple(en), tuple(zh), tuple(en_aliases), tuple(zh_aliases), **kw
    )


KINDS: dict[str, Kind] = {
    k.key: k
    for k in [
        # lights
        _k(
            "ceiling_light",
            "light",
            None,
            ["Ceiling Light"],
            ["吸顶灯"],
            ["Main Light", "Big Light"],
            ["大灯", "主灯"],
            max_per_area=1,
        ),
        _k(
            "downlights", "light", None, ["Downlights", "Recessed Lights"], ["筒灯"], [], ["天花灯"]
        ),
        _k("spotlight", "light", None, ["Spotlight"], ["射灯"]),
        _k(
            "pendant",
            "light",
            None,
            ["Pendant", "Pendant Light"],
            ["吊灯"],
            ["Hanging Light"],
            [],
            room_prefix=True,
        ),
        _k("panel_light", "light", None, ["Panel Light"], ["面板灯"], [], ["平板灯"]),
        _k("desk_lamp", "light", None, ["Desk Lamp"], ["台灯"], [], ["书桌灯"]),
        _k("floor_lamp", "light", None, ["Floor Lamp"], ["落地灯"], ["Reading Lamp"], []),
        _k(
            "bedside_lamp",
            "light",
            None,
            ["Bedside Lamp", "Left Bedside Lamp", "Right Bedside Lamp"],
            ["床头灯", "左床头灯", "右床头灯"],
        ),
        _k(
            "light_strip",
            "light",
            None,
            ["Light Strip", "LED Strip"],
            ["灯带"],
            ["Ambient Light"],
            ["氛围灯"],
        ),
        _k("mirror_light", "light", None, ["Mirror Light"], ["镜前灯"], max_per_area=1),
        _k("wall_light", "light", None, ["Wall Light", "Wall Sconce"], ["壁灯"], room_prefix=True),
        _k("night_light", "light", None, ["Night Light"], ["小夜灯"]),
        _k("chandelier", "light", None, ["Chandelier"], ["水晶吊灯"], max_per_area=1),
        _k("cabinet_lights", "light", None, ["Under Cabinet Lights"], ["橱柜灯"], max_per_area=1),
        _k(
            "porch_light",
            "light",
            None,
            ["Porch Light", "Entrance Light"],
            ["门廊灯", "门口灯"],
            max_per_area=1,
        ),
        _k("garden_lights", "light", None, ["Garden Lights", "Path Lights"], ["花园灯", "草坪灯"]),
        _k("hue_bulb", "light", None, ["Hue Bulb"], ["Yeelight灯泡"], numbered=True),
        # switches
        _k("smart_plug", "switch", "outlet", ["Smart Plug", "Outlet"], ["智能插座", "插座"]),
        _k("kettle", "switch", None, ["Kettle"], ["电水壶"], [], ["烧水壶"], max_per_area=1),
        _k(
            "coffee_maker",
            "switch",
            None,
            ["Coffee Maker", "Espresso Machine"],
            ["咖啡机"],
            max_per_area=1,
        ),
        _k("towel_rail", "switch", None, ["Towel Rail"], ["电热毛巾架"], max_per_area=1),
        _k("minibar", "switch", None, ["Minibar Fridge"], ["迷你冰箱"], max_per_area=1),
        _k("water_dispenser", "switch", None, ["Water Dispenser"], ["饮水机"], max_per_area=1),
        _k("monitor", "switch", None, ["Monitor"], ["显示器"]),
        _k("christmas_tree", "switch", None, ["Christmas Tree"], ["圣诞树"], max_per_area=1),
        _k("fountain", "switch", None, ["Fountain"], ["喷泉"], max_per_area=1),
        _k("printer", "switch", None, ["Printer"], ["打印机"], max_per_area=1),
        _k("washing_machine", "switch", None, ["Washing Machine"], ["洗衣机"], max_per_area=1),
        _k("dehumidifier", "switch", None, ["Dehumidifier"], ["除湿机"], max_per_area=1),
        # fans
        _k("ceiling_fan", "fan", None, ["Ceiling Fan"], ["吊扇"], max_per_area=1),
        _k("desk_fan", "fan", None, ["Desk Fan", "Tower Fan"], ["台扇", "落地扇"]),
        _k(
            "exhaust_fan",
            "fan",
            None,
            ["Exhaust Fan", "Extractor Fan"],
            ["排气扇", "换气扇"],
            max_per_area=1,
        ),
        # climate: one per area
        _k("thermostat", "climate", None, ["Thermostat"], ["温控器"], slot="climate"),
        _k(
            "air_conditioner",
            "climate",
            None,
            ["Air Conditioner", "AC"],
            ["空调"],
            ["Aircon"],
            ["冷气"],
            slot="climate",
        ),
        _k("floor_heating", "climate", None, ["Floor Heating"], ["地暖"], slot="climate"),
        # covers
        _k("blinds", "cover", "blind", ["Blinds", "Window Blinds"], ["百叶窗"], max_per_area=1),
        _k(
            "curtains",
            "cover",
            "curtain",
            ["Curtains"],
            ["窗帘"],
            ["Drapes"],
            ["布帘"],
            max_per_area=1,
        ),
        _k("roller_shade", "cover", "shade", ["Roller Shade"], ["卷帘"], max_per_area=1),
        _k("garage_door", "cover", "garage", ["Garage Door"], ["车库门"], max_per_area=1),
        _k("skylight", "cover", "window", ["Skylight"], ["天窗"], max_per_area=1),
        _k("awning", "cover", "awning", ["Awning"], ["遮阳篷"], max_per_area=1),
        # media players
        _k(
            "tv",
            "media_player",
            "tv",
            ["TV", "Television"],
            ["电视"],
            [],
            ["电视机"],
            room_prefix=True,
            max_per_area=1,
        ),
        _k(
            "speaker",
            "media_player",
            "speaker",
            ["Speaker", "Smart Speaker"],
            ["音箱", "智能音箱"],
            [],
            ["小爱同学"],
        ),
        _k("soundbar", "media_player", "speaker", ["Soundbar"], ["回音壁"], max_per_area=1),
        _k("projector", "media_player", None, ["Projector"], ["投影仪"], max_per_area=1),
        # locks
        _k(
            "door_lock",
            "lock",
            None,
            ["Door Lock"],
            ["门锁"],
            ["Smart Lock"],
            ["智能门锁"],
            max_per_area=1,
        ),
        _k(
            "front_door",
            "lock",
            None,
            ["Front Door", "Main Entrance"],
            ["入户门锁", "大门锁"],
            max_per_area=1,
        ),
        _k("back_door", "lock", None, ["Back Door"], ["后门锁"], max_per_area=1),
        # sensors
        _k(
            "temperature",
            "sensor",
            "temperature",
            ["Temperature", "Temperature Sensor"],
            ["温度", "温度传感器"],
        ),
        _k(
            "humidity",
            "sensor",
            "humidity",
            ["Humidity", "Humidity Sensor"],
            ["湿度", "湿度传感器"],
        ),
        _k("illuminance", "sensor", "illuminance", ["Illuminance"], ["光照度"]),
        _k("power", "sensor", "power", ["Power Usage", "Power Meter"], ["功率"], [], ["用电功率"]),
        _k("energy", "sensor", "energy", ["Energy Today"], ["今日用电量"]),
        _k("co2", "sensor", "carbon_dioxide", ["CO2 Level"], ["二氧化碳浓度"]),
        _k("pm25", "sensor", "pm25", ["PM2.5"], ["PM2.5"]),
        _k("phone_battery", "sensor", "battery", ["Phone Battery"], ["手机电量"]),
        _k("outdoor_temperature", "sensor", "temperature", ["Outdoor Temperature"], ["室外温度"]),
        _k(
            "motion",
            "binary_sensor",
            "motion",
            ["Motion Sensor", "Motion"],
            ["人体传感器", "人体感应"],
        ),
        _k(
            "occupancy",
            "binary_sensor",
            "occupancy",
            ["Occupancy", "Presence Sensor"],
            ["有人传感器", "人在传感器"],
        ),
        _k(
            "door_sensor",
            "binary_sensor",
            "door",
            ["Door Sensor", "Door Contact"],
            ["门磁"],
            [],
            ["门窗传感器"],
        ),
        _k("window_sensor", "binary_sensor", "window", ["Window Sensor"], ["窗磁"]),
        _k(
            "smoke",
            "binary_sensor",
            "smoke",
            ["Smoke Detector", "Smoke Alarm"],
            ["烟雾报警器"],
            max_per_area=1,
        ),
        _k(
            "leak",
            "binary_sensor",
            "moisture",
            ["Leak Sensor", "Water Leak"],
            ["漏水传感器"],
            max_per_area=1,
        ),
        _k("internet", "binary_sensor", "connectivity", ["Internet"], ["网络连接"]),
        # the rest
        _k(
            "vacuum",
            "vacuum",
            None,
            ["Robot Vacuum", "Roborock"],
            ["扫地机器人"],
            ["Roomba"],
            ["扫地机"],
            max_per_area=1,
        ),
        _k(
            "scene_movie",
            "scene",
            None,
            ["Movie Night", "Movie Time"],
            ["观影模式"],
            max_per_area=1,
        ),
        _k("scene_reading", "scene", None, ["Reading Mode"], ["阅读模式"], max_per_area=1),
        _k("scene_welcome", "scene", None, ["Welcome"], ["欢迎模式"], max_per_area=1),
        _k(
            "scene_sleep",
            "scene",
            None,
            ["Sleep Mode", "Goodnight"],
            ["睡眠模式", "晚安"],
            max_per_area=1,
        ),
        _k(
            "scene_meeting",
            "scene",
            None,
            ["Meeting Mode", "Presentation"],
            ["会议模式", "演示模式"],
            max_per_area=1,
        ),
        _k("scene_relax", "scene", None, ["Relax"], ["放松模式"], room_prefix=True, max_per_area=1),
        _k("scene_all_off", "scene", None, ["All Off"], ["全部关闭"], max_per_area=1),
        _k("script_bedtime", "script", None, ["Bedtime Routine"], ["睡前流程"], max_per_area=1),
        _k("script_morning", "script", None, ["Good Morning"], ["早安模式"], max_per_area=1),
        _k("script_turnover", "script", None, ["Turnover Reset"], ["退房重置"], max_per_area=1),
        _k(
            "script_presentation",
            "script",
            None,
            ["Start Presentation"],
            ["开始投屏"],
            max_per_area=1,
        ),
        _k("script_leave", "script", None, ["Leave Home"], ["离家模式"], max_per_area=1),
    ]
}

# Entities without an area: loose bulbs, phones, whole-home scenes and scripts.
UNASSIGNED_KINDS = (
    "hue_bulb",
    "phone_battery",
    "outdoor_temperature",
    "internet",
    "script_leave",
    "scene_all_off",
    "script_morning",
    "vacuum",
)
