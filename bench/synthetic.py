"""Synthetic homes and benchmark cases of any size, seeded and deterministic.

    home = make_home(10_000, language="zh", seed=0)    # the benchmark JSON home format
    cases = make_cases(home, 300, seed=1)              # the benchmark case format

    .venv/bin/python -m bench.synthetic --entities 2000 --language en --home H.json --cases C.jsonl

Homes follow `../shared/benchmark/dev/README.md` ("Home format"): a house for small sizes
(living room, kitchen, bedrooms … on two or three floors), a building for large ones (a lobby,
a gym, and per floor a hallway, a kitchenette, a meeting room and numbered rooms, "Room 204" /
"204房间"). Names repeat from room to room the way they do in real homes ("Ceiling Light" /
"吸顶灯" in every room), some names mention their room ("Kitchen Pendant"), and about 10 % of
entities have an alias, 10 % a label, 30 % a device name; a few have no area.

Case gold is computed from the home data with the README's rules ("Gold resolution"): names
and aliases compare after trim + casefold; area/floor + type → every entity of that domain
(and device class) there. Nothing here knows how the engine works.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

# =============================================================================================
# Entity catalogue
# =============================================================================================


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


def _k(key: str, domain: str, device_class: str | None, en: Sequence[str], zh: Sequence[str],
       en_aliases: Sequence[str] = (), zh_aliases: Sequence[str] = (), **kw: Any) -> Kind:
    return Kind(key, domain, device_class, tuple(en), tuple(zh), tuple(en_aliases),
                tuple(zh_aliases), **kw)


KINDS: dict[str, Kind] = {k.key: k for k in [
    # lights
    _k("ceiling_light", "light", None, ["Ceiling Light"], ["吸顶灯"],
       ["Main Light", "Big Light"], ["大灯", "主灯"], max_per_area=1),
    _k("downlights", "light", None, ["Downlights", "Recessed Lights"], ["筒灯"], [], ["天花灯"]),
    _k("spotlight", "light", None, ["Spotlight"], ["射灯"]),
    _k("pendant", "light", None, ["Pendant", "Pendant Light"], ["吊灯"], ["Hanging Light"], [],
       room_prefix=True),
    _k("panel_light", "light", None, ["Panel Light"], ["面板灯"], [], ["平板灯"]),
    _k("desk_lamp", "light", None, ["Desk Lamp"], ["台灯"], [], ["书桌灯"]),
    _k("floor_lamp", "light", None, ["Floor Lamp"], ["落地灯"], ["Reading Lamp"], []),
    _k("bedside_lamp", "light", None, ["Bedside Lamp", "Left Bedside Lamp", "Right Bedside Lamp"],
       ["床头灯", "左床头灯", "右床头灯"]),
    _k("light_strip", "light", None, ["Light Strip", "LED Strip"], ["灯带"],
       ["Ambient Light"], ["氛围灯"]),
    _k("mirror_light", "light", None, ["Mirror Light"], ["镜前灯"], max_per_area=1),
    _k("wall_light", "light", None, ["Wall Light", "Wall Sconce"], ["壁灯"], room_prefix=True),
    _k("night_light", "light", None, ["Night Light"], ["小夜灯"]),
    _k("chandelier", "light", None, ["Chandelier"], ["水晶吊灯"], max_per_area=1),
    _k("cabinet_lights", "light", None, ["Under Cabinet Lights"], ["橱柜灯"], max_per_area=1),
    _k("porch_light", "light", None, ["Porch Light", "Entrance Light"], ["门廊灯", "门口灯"],
       max_per_area=1),
    _k("garden_lights", "light", None, ["Garden Lights", "Path Lights"], ["花园灯", "草坪灯"]),
    _k("hue_bulb", "light", None, ["Hue Bulb"], ["Yeelight灯泡"], numbered=True),
    # switches
    _k("smart_plug", "switch", "outlet", ["Smart Plug", "Outlet"], ["智能插座", "插座"]),
    _k("kettle", "switch", None, ["Kettle"], ["电水壶"], [], ["烧水壶"], max_per_area=1),
    _k("coffee_maker", "switch", None, ["Coffee Maker", "Espresso Machine"], ["咖啡机"],
       max_per_area=1),
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
    _k("exhaust_fan", "fan", None, ["Exhaust Fan", "Extractor Fan"], ["排气扇", "换气扇"],
       max_per_area=1),
    # climate: one per area
    _k("thermostat", "climate", None, ["Thermostat"], ["温控器"], slot="climate"),
    _k("air_conditioner", "climate", None, ["Air Conditioner", "AC"], ["空调"],
       ["Aircon"], ["冷气"], slot="climate"),
    _k("floor_heating", "climate", None, ["Floor Heating"], ["地暖"], slot="climate"),
    # covers
    _k("blinds", "cover", "blind", ["Blinds", "Window Blinds"], ["百叶窗"], max_per_area=1),
    _k("curtains", "cover", "curtain", ["Curtains"], ["窗帘"], ["Drapes"], ["布帘"],
       max_per_area=1),
    _k("roller_shade", "cover", "shade", ["Roller Shade"], ["卷帘"], max_per_area=1),
    _k("garage_door", "cover", "garage", ["Garage Door"], ["车库门"], max_per_area=1),
    _k("skylight", "cover", "window", ["Skylight"], ["天窗"], max_per_area=1),
    _k("awning", "cover", "awning", ["Awning"], ["遮阳篷"], max_per_area=1),
    # media players
    _k("tv", "media_player", "tv", ["TV", "Television"], ["电视"], [], ["电视机"],
       room_prefix=True, max_per_area=1),
    _k("speaker", "media_player", "speaker", ["Speaker", "Smart Speaker"], ["音箱", "智能音箱"],
       [], ["小爱同学"]),
    _k("soundbar", "media_player", "speaker", ["Soundbar"], ["回音壁"], max_per_area=1),
    _k("projector", "media_player", None, ["Projector"], ["投影仪"], max_per_area=1),
    # locks
    _k("door_lock", "lock", None, ["Door Lock"], ["门锁"], ["Smart Lock"], ["智能门锁"],
       max_per_area=1),
    _k("front_door", "lock", None, ["Front Door", "Main Entrance"], ["入户门锁", "大门锁"],
       max_per_area=1),
    _k("back_door", "lock", None, ["Back Door"], ["后门锁"], max_per_area=1),
    # sensors
    _k("temperature", "sensor", "temperature", ["Temperature", "Temperature Sensor"],
       ["温度", "温度传感器"]),
    _k("humidity", "sensor", "humidity", ["Humidity", "Humidity Sensor"], ["湿度", "湿度传感器"]),
    _k("illuminance", "sensor", "illuminance", ["Illuminance"], ["光照度"]),
    _k("power", "sensor", "power", ["Power Usage", "Power Meter"], ["功率"], [], ["用电功率"]),
    _k("energy", "sensor", "energy", ["Energy Today"], ["今日用电量"]),
    _k("co2", "sensor", "carbon_dioxide", ["CO2 Level"], ["二氧化碳浓度"]),
    _k("pm25", "sensor", "pm25", ["PM2.5"], ["PM2.5"]),
    _k("phone_battery", "sensor", "battery", ["Phone Battery"], ["手机电量"]),
    _k("outdoor_temperature", "sensor", "temperature", ["Outdoor Temperature"], ["室外温度"]),
    _k("motion", "binary_sensor", "motion", ["Motion Sensor", "Motion"],
       ["人体传感器", "人体感应"]),
    _k("occupancy", "binary_sensor", "occupancy", ["Occupancy", "Presence Sensor"],
       ["有人传感器", "人在传感器"]),
    _k("door_sensor", "binary_sensor", "door", ["Door Sensor", "Door Contact"], ["门磁"],
       [], ["门窗传感器"]),
    _k("window_sensor", "binary_sensor", "window", ["Window Sensor"], ["窗磁"]),
    _k("smoke", "binary_sensor", "smoke", ["Smoke Detector", "Smoke Alarm"], ["烟雾报警器"],
       max_per_area=1),
    _k("leak", "binary_sensor", "moisture", ["Leak Sensor", "Water Leak"], ["漏水传感器"],
       max_per_area=1),
    _k("internet", "binary_sensor", "connectivity", ["Internet"], ["网络连接"]),
    # the rest
    _k("vacuum", "vacuum", None, ["Robot Vacuum", "Roborock"], ["扫地机器人"], ["Roomba"],
       ["扫地机"], max_per_area=1),
    _k("scene_movie", "scene", None, ["Movie Night", "Movie Time"], ["观影模式"], max_per_area=1),
    _k("scene_reading", "scene", None, ["Reading Mode"], ["阅读模式"], max_per_area=1),
    _k("scene_welcome", "scene", None, ["Welcome"], ["欢迎模式"], max_per_area=1),
    _k("scene_sleep", "scene", None, ["Sleep Mode", "Goodnight"], ["睡眠模式", "晚安"],
       max_per_area=1),
    _k("scene_meeting", "scene", None, ["Meeting Mode", "Presentation"], ["会议模式", "演示模式"],
       max_per_area=1),
    _k("scene_relax", "scene", None, ["Relax"], ["放松模式"], room_prefix=True, max_per_area=1),
    _k("scene_all_off", "scene", None, ["All Off"], ["全部关闭"], max_per_area=1),
    _k("script_bedtime", "script", None, ["Bedtime Routine"], ["睡前流程"], max_per_area=1),
    _k("script_morning", "script", None, ["Good Morning"], ["早安模式"], max_per_area=1),
    _k("script_turnover", "script", None, ["Turnover Reset"], ["退房重置"], max_per_area=1),
    _k("script_presentation", "script", None, ["Start Presentation"], ["开始投屏"],
       max_per_area=1),
    _k("script_leave", "script", None, ["Leave Home"], ["离家模式"], max_per_area=1),
]}

# Entities without an area: loose bulbs, phones, whole-home scenes and scripts.
UNASSIGNED_KINDS = ("hue_bulb", "phone_battery", "outdoor_temperature", "internet",
                    "script_leave", "scene_all_off", "script_morning", "vacuum")

# =============================================================================================
# Rooms
# =============================================================================================


@dataclass(frozen=True)
class RoomKind:
    """What a kind of room holds: core kinds first (a tuple = pick one), then weighted extras."""

    core: tuple[str | tuple[str, ...], ...]
    extras: tuple[tuple[str, float], ...]
    weight: float  # relative number of entities


def _room(core: Sequence[str | tuple[str, ...]], extras: str, weight: float) -> RoomKind:
    """`extras` is "kind:weight kind:weight …" (weight 1 when left out)."""
    parsed = []
    for item in extras.split():
        key, _, w = item.partition(":")
        parsed.append((key, float(w or 1)))
    return RoomKind(tuple(core), tuple(parsed), weight)


ROOM_KINDS: dict[str, RoomKind] = {
    "living": _room(
        ["ceiling_light", "floor_lamp", "tv", "curtains", ("thermostat", "air_conditioner")],
        "light_strip downlights:2 wall_light spotlight:2 speaker soundbar ceiling_fan blinds "
        "motion temperature humidity smart_plug:2 scene_movie scene_relax vacuum "
        "christmas_tree pm25", 1.6),
    "kitchen": _room(
        ["ceiling_light", "pendant", "cabinet_lights", "kettle", "coffee_maker"],
        "water_dispenser exhaust_fan smoke leak temperature blinds speaker smart_plug:2 power "
        "downlights spotlight:2", 1.3),
    "dining": _room(
        ["chandelier", "wall_light", "curtains"],
        "spotlight:2 speaker blinds motion temperature downlights smart_plug pendant", 0.8),
    "bedroom": _room(
        ["ceiling_light", "bedside_lamp", "curtains", ("air_conditioner", "thermostat")],
        "bedside_lamp light_strip night_light desk_lamp floor_lamp blinds speaker tv motion "
        "temperature humidity smart_plug:2 door_sensor window_sensor scene_sleep "
        "scene_reading script_bedtime ceiling_fan spotlight downlights", 1.1),
    "bathroom": _room(
        ["ceiling_light", "mirror_light", "exhaust_fan"],
        "towel_rail leak humidity motion night_light speaker floor_heating:0.5 downlights", 0.6),
    "office": _room(
        [("ceiling_light", "panel_light"), "desk_lamp", "blinds", "monitor"],
        "printer desk_fan speaker air_conditioner temperature co2 smart_plug:2 motion "
        "floor_lamp spotlight", 0.9),
    "hallway": _room(
        [("ceiling_light", "downlights"), "motion"],
        "spotlight:2 night_light wall_light smoke door_sensor illuminance downlights", 0.4),
    "garage": _room(
        ["ceiling_light", "garage_door"],
        "spotlight motion smart_plug door_sensor power washing_machine", 0.6),
    "laundry": _room(
        ["ceiling_light", "washing_machine", "leak"],
        "dehumidifier humidity smart_plug exhaust_fan", 0.5),
    "entrance": _room(
        [("ceiling_light", "chandelier"), "front_door", "motion", "door_sensor"],
        "porch_light spotlight downlights wall_light smoke speaker scene_welcome "
        "air_conditioner occupancy tv", 0.8),
    "outdoor": _room(
        ["garden_lights", "motion"],
        "porch_light fountain spotlight:2 temperature humidity awning illuminance smart_plug",
        0.7),
    "gym": _room(
        ["ceiling_light", "tv", "ceiling_fan"],
        "speaker:2 air_conditioner spotlight motion temperature humidity smart_plug downlights",
        0.9),
    "balcony": _room(
        ["ceiling_light"], "garden_lights awning smart_plug temperature humidity motion", 0.4),
    "hotel_room": _room(
        ["ceiling_light", "bedside_lamp", "bedside_lamp", "curtains", "air_conditioner", "tv",
         "door_lock", "occupancy"],
        "mirror_light exhaust_fan minibar kettle speaker blinds light_strip spotlight:2 "
        "downlights:2 temperature humidity power:2 energy door_sensor window_sensor smoke "
        "scene_welcome scene_sleep script_turnover desk_lamp floor_lamp smart_plug:3 "
        "night_light towel_rail", 1.0),
    "meeting": _room(
        ["panel_light", "downlights", "blinds", ("projector", "tv"), "occupancy",
         "air_conditioner"],
        "spotlight:2 speaker temperature co2 smart_plug:2 scene_meeting script_presentation "
        "monitor motion roller_shade", 0.9),
    "kitchenette": _room(
        ["ceiling_light", "kettle", "water_dispenser"],
        "coffee_maker exhaust_fan smoke leak smart_plug power downlights", 0.6),
    "lobby": _room(
        ["chandelier", "front_door", "occupancy", "speaker"],
        "downlights:2 spotlight:2 wall_light tv air_conditioner door_sensor smoke "
        "scene_welcome temperature co2 smart_plug back_door", 2.0),
    "restaurant": _room(
        ["chandelier", "downlights", "speaker", "blinds", "air_conditioner"],
        "spotlight:2 wall_light pendant tv motion temperature co2 scene_welcome smart_plug:2 "
        "coffee_maker", 1.6),
    "parking": _room(
        ["ceiling_light", "garage_door", "motion"],
        "spotlight:2 smart_plug door_sensor power co2", 1.0),
}


@dataclass(frozen=True)
class RoomSpec:
    """One concrete area before names are localised."""

    area_id: str
    kind: str
    en: str
    zh: str
    en_aliases: tuple[str, ...] = ()
    zh_aliases: tuple[str, ...] = ()
    level: int = 0


# (area_id, kind, en name, en aliases, zh name, zh aliases, level)
RoomRow = tuple[str, str, str, tuple[str, ...], str, tuple[str, ...], int]


def _room_spec(row: RoomRow, level: int) -> RoomSpec:
    area_id, kind, en, en_aliases, zh, zh_aliases, _ = row
    return RoomSpec(area_id, kind, en, zh, en_aliases, zh_aliases, level)


# level → (floor_id, en name, en aliases, zh name, zh aliases)
HOUSE_FLOORS: dict[int, tuple[str, str, tuple[str, ...], str, tuple[str, ...]]] = {
    -1: ("basement", "Basement", ("Lower Level", "Cellar"), "地下室", ("负一楼", "B1")),
    0: ("ground_floor", "Downstairs", ("Ground Floor", "Main Floor"), "一楼",
        ("楼下", "一层", "1楼")),
    1: ("upstairs", "Upstairs", ("Second Floor", "Top Floor"), "二楼", ("楼上", "二层", "2楼")),
}

HOUSE_ROOMS: tuple[RoomRow, ...] = (
    ("living_room", "living", "Living Room", ("Lounge", "Family Room"), "客厅", ("起居室", "大厅"),
     0),
    ("kitchen", "kitchen", "Kitchen", (), "厨房", (), 0),
    ("master_bedroom", "bedroom", "Master Bedroom", ("Main Bedroom",), "主卧", ("主卧室",), 1),
    ("bathroom", "bathroom", "Bathroom", ("Restroom",), "卫生间", ("洗手间", "浴室"), 1),
    ("office", "office", "Office", ("Study",), "书房", ("工作间",), 1),
    ("kids_room", "bedroom", "Kids Room", ("Children's Room",), "儿童房", ("小孩房",), 1),
    ("hallway", "hallway", "Hallway", ("Corridor",), "走廊", ("过道",), 0),
    ("dining_room", "dining", "Dining Room", (), "餐厅", ("饭厅",), 0),
    ("guest_room", "bedroom", "Guest Room", ("Spare Room",), "次卧", ("客房",), 1),
    ("garage", "garage", "Garage", (), "车库", (), 0),
    ("entrance", "entrance", "Entryway", ("Foyer",), "玄关", ("门厅",), 0),
    ("garden", "outdoor", "Garden", ("Backyard",), "花园", ("院子",), 0),
    ("laundry_room", "laundry", "Laundry Room", ("Utility Room",), "洗衣房", (), -1),
    ("master_bathroom", "bathroom", "Master Bathroom", ("En Suite",), "主卫", (), 1),
    ("home_gym", "gym", "Home Gym", (), "健身房", (), -1),
    ("balcony", "balcony", "Balcony", (), "阳台", (), 1),
)

# Ground-floor (and basement) rooms of a building.
BUILDING_COMMONS: tuple[RoomRow, ...] = (
    ("lobby", "lobby", "Lobby", ("Reception",), "大堂", ("前台",), 1),
    ("restaurant", "restaurant", "Restaurant", ("Dining Hall",), "餐厅", ("饭堂",), 1),
    ("gym", "gym", "Gym", ("Fitness Center",), "健身房", ("健身中心",), 1),
    ("courtyard", "outdoor", "Courtyard", ("Garden",), "庭院", ("花园",), 1),
    ("parking_garage", "parking", "Parking Garage", ("Car Park",), "地下车库", ("停车场",), -1),
    ("laundry_room", "laundry", "Laundry Room", (), "洗衣房", (), -1),
    ("business_center", "office", "Business Center", (), "商务中心", (), 1),
)

EN_ORDINALS = ("Ground", "First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh",
               "Eighth", "Ninth", "Tenth", "Eleventh", "Twelfth", "Thirteenth", "Fourteenth")
EN_SUFFIXED = ("0th", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th",
               "11th", "12th", "13th", "14th")
ZH_NUMBERS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
              "十三", "十四")

LABELS_EN = ("christmas", "energy saver", "night mode", "guest", "maintenance", "vip",
             "outdoor")
LABELS_ZH = ("圣诞装饰", "节能", "夜间模式", "访客", "维修", "贵宾", "户外")

MODELS: dict[str, tuple[str, ...]] = {
    "light": ("Philips Hue White A19", "Philips Hue Go", "IKEA TRADFRI LED1836G9",
              "Yeelight YLXD50YL", "Nanoleaf Essentials A19", "Aqara Ceiling Light T1M",
              "Xiaomi Mijia Desk Lamp 1S", "Yeelight 吸顶灯 Pro", "欧普 智能筒灯"),
    "switch": ("Shelly Plus 1PM", "TP-Link Kasa KP115", "Sonoff S31", "小米智能插座3",
               "Aqara Smart Plug T1"),
    "fan": ("Dyson Pure Cool TP07", "Xiaomi Smart Standing Fan 2", "Hunter Signal"),
    "climate": ("ecobee Smart Thermostat Premium", "Nest Learning Thermostat", "格力 云佳 KFR-35GW",
                "Daikin BRP072C42", "Aqara Thermostat E1"),
    "cover": ("IKEA FYRTUR", "Somfy Sonesse 30", "Aqara Curtain Driver E1", "杜亚 M1 电机"),
    "media_player": ("Sonos One", "Sonos Arc", "LG OLED C3", "Apple TV 4K", "小米电视 EA55",
                     "Xiaomi Smart Speaker Pro"),
    "lock": ("Yale Assure Lock 2", "Nuki Smart Lock 4.0", "August Wi-Fi Smart Lock",
             "小米智能门锁 Pro"),
    "sensor": ("Aqara Temperature and Humidity Sensor T1", "Shelly H&T Gen3",
               "Shelly EM", "Xiaomi Mijia LYWSD03MMC", "IKEA VINDSTYRKA"),
    "binary_sensor": ("Aqara Motion Sensor P1", "Aqara Door and Window Sensor",
                      "Philips Hue Motion Sensor", "Aqara FP2 Presence Sensor", "小米烟雾报警器"),
    "vacuum": ("Roborock S8 Pro Ultra", "iRobot Roomba j7+", "石头 G20"),
}


def area_count(n_entities: int) -> int:
    """About 10 areas for 100 entities, 45 for 1,000, 200 for 10,000 (0.5·n^0.65)."""
    return max(3, min(200, round(0.5 * max(n_entities, 1) ** 0.65)))


# =============================================================================================
# Homes
# =============================================================================================


def _floors_and_rooms(n_areas: int, rng: random.Random) -> tuple[list[dict[str, Any]],
                                                                list[RoomSpec]]:
    """Language-neutral floors (level, en, zh, aliases) and room specs."""
    floors: list[dict[str, Any]] = []
    rooms: list[RoomSpec] = []
    if n_areas <= len(HOUSE_ROOMS):
        chosen = HOUSE_ROOMS[:n_areas]
        levels = sorted({lvl for *_, lvl in chosen})
        if n_areas <= 5:
            levels = [0]
        for lvl in levels:
            floor_id, en, en_aliases, zh, zh_aliases = HOUSE_FLOORS[lvl]
            floors.append({"floor_id": floor_id, "level": lvl, "en": en,
                           "en_aliases": en_aliases, "zh": zh, "zh_aliases": zh_aliases})
        for row in chosen:
            wanted = row[-1]
            level = min(levels, key=lambda x: (abs(x - wanted), x))
            rooms.append(_room_spec(row, level))
        return floors, rooms

    # A building: floors 1..F, a basement from four floors up.
    n_floors = max(3, min(12, round(n_areas / 18)))
    if n_floors >= 4:
        floors.append({"floor_id": "basement", "level": -1, "en": "Basement",
                       "en_aliases": ("Lower Level", "B1"), "zh": "地下一层",
                       "zh_aliases": ("负一楼", "B1")})
    for f in range(1, n_floors + 1):
        floor_aliases = [f"{EN_ORDINALS[f]} Floor", f"Level {f}", f"{EN_SUFFIXED[f]} Floor"]
        if f == 1:
            floor_aliases.insert(0, "Ground Floor")
        floors.append({"floor_id": f"floor_{f}", "level": f, "en": f"Floor {f}",
                       "en_aliases": tuple(floor_aliases), "zh": f"{ZH_NUMBERS[f]}楼",
                       "zh_aliases": (f"{ZH_NUMBERS[f]}层", f"{f}楼", f"{f}F")})
    has_basement = n_floors >= 4
    n_commons = min(len(BUILDING_COMMONS), max(3, n_areas // 8))
    for row in BUILDING_COMMONS[:n_commons]:
        rooms.append(_room_spec(row, row[-1] if row[-1] > 0 or has_basement else 1))

    def floor_rooms(f: int) -> Iterator[RoomSpec]:
        ord_en, cn = EN_ORDINALS[f], ZH_NUMBERS[f]
        yield RoomSpec(f"floor_{f}_hallway", "hallway", f"{ord_en} Floor Hallway",
                       f"{cn}楼走廊", (f"Floor {f} Hallway",), (f"{f}楼走廊",), f)
        if f > 1:
            yield RoomSpec(f"floor_{f}_kitchenette", "kitchenette", f"{ord_en} Floor Kitchenette",
                           f"{cn}楼茶水间", (f"Floor {f} Pantry",), (f"{f}楼茶水间",), f)
            yield RoomSpec(f"floor_{f}_meeting_room", "meeting", f"{ord_en} Floor Meeting Room",
                           f"{cn}楼会议室", (f"Meeting Room {f}",), (f"{f}楼会议室",), f)
        for number in range(1, 100):
            num = f"{f}{number:02d}"
            if f > 1 and number % 12 == 0:
                yield RoomSpec(f"office_{num}", "office", f"Office {num}", f"{num}办公室",
                               (f"Suite {num}",), (f"{num}室",), f)
            else:
                yield RoomSpec(f"room_{num}", "hotel_room", f"Room {num}", f"{num}房间",
                               (f"Unit {num}",), (f"{num}号房",), f)

    gens = [floor_rooms(f) for f in range(1, n_floors + 1)]
    i = 0
    while len(rooms) < n_areas:
        rooms.append(next(gens[i % n_floors]))
        i += 1
    # A third of the numbered rooms go without their alias; people rarely set one.
    out = []
    for room in rooms:
        if room.kind == "hotel_room" and rng.random() < 0.66:
            room = RoomSpec(room.area_id, room.kind, room.en, room.zh, (), (), room.level)
        out.append(room)
    return floors, out


def _quotas(total: int, weights: list[float]) -> list[int]:
    """Split `total` in proportion to `weights` (largest remainder), at least 1 each if possible."""
    s = sum(weights) or 1.0
    raw = [total * w / s for w in weights]
    out = [int(x) for x in raw]
    order = sorted(range(len(raw)), key=lambda i: (out[i] - raw[i], i))
    for i in order[: total - sum(out)]:
        out[i] += 1
    return out


def _pick_kinds(room: RoomKind, quota: int, rng: random.Random) -> list[Kind]:
    """The kinds of entity in one area: the core first, then weighted extras."""
    chosen: list[Kind] = []
    counts: dict[str, int] = defaultdict(int)
    slots: set[str] = set()

    def fits(kind: Kind) -> bool:
        if kind.slot and kind.slot in slots:
            return False
        return not (kind.max_per_area and counts[kind.key] >= kind.max_per_area)

    def take(kind: Kind) -> None:
        chosen.append(kind)
        counts[kind.key] += 1
        if kind.slot:
            slots.add(kind.slot)

    for item in room.core:
        if len(chosen) >= quota:
            break
        key = rng.choice(item) if isinstance(item, tuple) else item
        if fits(KINDS[key]):
            take(KINDS[key])
    keys = [k for k, _ in room.extras]
    weights = [w for _, w in room.extras]
    # When the room's own kinds run out, more of the repeatable ones (spotlights, plugs, …).
    fallback = ["spotlight", "downlights", "smart_plug", "power", "temperature", "motion"]
    attempts = 0
    while len(chosen) < quota:
        attempts += 1
        key = rng.choices(keys, weights)[0] if attempts < quota * 8 else rng.choice(fallback)
        if fits(KINDS[key]):
            take(KINDS[key])
    return chosen


def _state(domain: str, device_class: str | None, rng: random.Random) -> str | None:
    if domain in ("light", "switch", "fan", "binary_sensor"):
        return rng.choice(("on", "off"))
    if domain == "climate":
        return rng.choice(("heat", "cool", "off", "auto"))
    if domain == "cover":
        return rng.choice(("open", "closed"))
    if domain == "media_player":
        return rng.choice(("playing", "paused", "idle", "off"))
    if domain == "lock":
        return rng.choice(("locked", "unlocked"))
    if domain == "vacuum":
        return rng.choice(("docked", "cleaning"))
    if domain == "sensor":
        ranges = {"temperature": (16, 28), "humidity": (30, 70), "illuminance": (0, 800),
                  "power": (0, 2000), "energy": (0, 20), "carbon_dioxide": (400, 1400),
                  "pm25": (2, 80), "battery": (5, 100)}
        lo, hi = ranges.get(device_class or "", (0, 100))
        return str(rng.randint(lo, hi))
    if domain == "script":
        return "off"
    return None


def make_home(n_entities: int, language: str = "en", seed: int = 0) -> dict[str, Any]:
    """A home of exactly `n_entities` entities in the benchmark JSON home format."""
    if language not in ("en", "zh"):
        raise ValueError(f"language must be 'en' or 'zh', not {language!r}")
    zh = language == "zh"
    rng = random.Random(f"home:{n_entities}:{seed}")  # language-independent layout
    n_areas = area_count(n_entities)
    floor_specs, rooms = _floors_and_rooms(n_areas, rng)
    level_to_floor = {f["level"]: f["floor_id"] for f in floor_specs}

    floors = [{"floor_id": f["floor_id"], "name": f["zh"] if zh else f["en"],
               "aliases": list(f["zh_aliases"] if zh else f["en_aliases"])}
              for f in floor_specs]
    areas = [{"area_id": r.area_id, "name": r.zh if zh else r.en,
              "aliases": list(r.zh_aliases if zh else r.en_aliases),
              "floor_id": level_to_floor.get(r.level)} for r in rooms]

    n_unassigned = 0 if n_entities < 10 else max(1, round(n_entities * 0.03))
    weights = [ROOM_KINDS[r.kind].weight * rng.uniform(0.75, 1.25) for r in rooms]
    quotas = _quotas(n_entities - n_unassigned, weights)

    labels = LABELS_ZH if zh else LABELS_EN
    entities: list[dict[str, Any]] = []
    used_ids: set[str] = set()
    numbered: dict[str, int] = defaultdict(int)  # kind → last number handed out home-wide

    def entity_id(domain: str, stem: str) -> str:
        candidate = f"{domain}.{stem}"
        k = 2
        while candidate in used_ids:
            candidate = f"{domain}.{stem}_{k}"
            k += 1
        used_ids.add(candidate)
        return candidate

    def localise(kind: Kind, room_name: str | None, taken: set[str]) -> tuple[str, str]:
        """(name, base name) for one entity; numbered when the room already has that name."""
        variants = kind.zh if zh else kind.en
        if kind.numbered:
            numbered[kind.key] += 1
            base = variants[0]
            return (f"{base}{numbered[kind.key]}" if zh
                    else f"{base} {numbered[kind.key]}"), base
        free = [v for v in variants if v.casefold() not in taken]
        base = rng.choice(free) if free else variants[0]
        name = base
        if room_name and kind.room_prefix and rng.random() < 0.5:
            name = f"{room_name}{base}" if zh else f"{room_name} {base}"
        k = 2
        while name.casefold() in taken:
            name = f"{base}{k}" if zh else f"{base} {k}"
            k += 1
        return name, base

    def finish(kind: Kind, name: str, area: dict[str, Any] | None, stem: str) -> None:
        aliases: list[str] = []
        if rng.random() < 0.10:
            pool = list(kind.zh_aliases if zh else kind.en_aliases)
            if pool:
                aliases.append(rng.choice(pool))
            elif area is not None and not name.startswith(area["name"]):
                # The other common alias: the name with its room in front.
                aliases.append(f"{area['name']}{name}" if zh else f"{area['name']} {name}")
        entity: dict[str, Any] = {
            "entity_id": entity_id(kind.domain, stem),
            "name": name,
            "aliases": [a for a in aliases if a.casefold() != name.casefold()],
            "domain": kind.domain,
            "device_class": kind.device_class,
            "area_id": area["area_id"] if area else None,
            "labels": sorted(rng.sample(labels, rng.choice((1, 1, 2))))
            if rng.random() < 0.10 else [],
            "state": _state(kind.domain, kind.device_class, rng),
        }
        models = MODELS.get(kind.domain)
        if models and rng.random() < 0.30:
            entity["device_name"] = rng.choice(models)
        entities.append(entity)

    for room, area, quota in zip(rooms, areas, quotas, strict=True):
        taken: set[str] = set()
        for kind in _pick_kinds(ROOM_KINDS[room.kind], quota, rng):
            name, _ = localise(kind, str(area["name"]), taken)
            taken.add(name.casefold())
            finish(kind, name, area, f"{room.area_id}_{kind.key}")
    taken_loose: set[str] = set()
    # One of each loose kind (while they last), the rest loose bulbs: "Hue Bulb 7".
    loose = [k for k in UNASSIGNED_KINDS[1:] if rng.random() < 0.8]
    for i in range(n_unassigned):
        key = loose[i // 2] if i % 2 == 1 and i // 2 < len(loose) else UNASSIGNED_KINDS[0]
        kind = KINDS[key]
        name, _ = localise(kind, None, taken_loose)
        taken_loose.add(name.casefold())
        finish(kind, name, None, kind.key)

    return {
        "home_id": f"synthetic_{language}_{n_entities}_s{seed}",
        "language": language,
        "floors": floors,
        "areas": areas,
        "entities": entities,
        "meta": {"generator": "bench.synthetic", "seed": seed, "n_entities": n_entities,
                 "layout": "house" if n_areas <= len(HOUSE_ROOMS) else "building"},
    }


# =============================================================================================
# Cases
# =============================================================================================
#
# Templates: "{n}" a name, "{a}" an area as said after a preposition ("the kitchen", "room 204"),
# "{A}" the bare area ("kitchen"), "{f}" a floor with its preposition ("on the second floor",
# "upstairs"), "{t}" a type word (plural in English unless there is only one), "{t1}" its
# singular. A leading "!" marks an imperative that may get a polite wrapper ("could you …",
# "帮我…"); the "!" itself is not part of the sentence.

EN_NAME: dict[str, list[str]] = {
    "light": ["!turn on the {n}", "!turn off the {n}", "!switch the {n} off",
              "!dim the {n} to 30 percent", "!set the {n} to 50%", "{n} off", "{n} on please",
              "!turn the {n} on"],
    "switch": ["!turn on the {n}", "!switch off the {n}", "!turn the {n} on", "!power off the {n}",
               "{n} off"],
    "fan": ["!turn on the {n}", "!switch the {n} off", "!set the {n} to 50 percent",
            "!turn off the {n}"],
    "climate": ["!set the {n} to 21 degrees", "!turn the {n} up to 72", "!turn off the {n}",
                "what is the {n} set to", "!set the {n} to heat"],
    "cover": ["!open the {n}", "!close the {n}", "!open the {n} halfway", "!lower the {n}",
              "!set the {n} to 30 percent"],
    "media_player": ["!pause the {n}", "!turn up the volume on the {n}",
                     "!play some jazz on the {n}", "!skip to the next song on the {n}",
                     "!mute the {n}", "!turn off the {n}"],
    "lock": ["!lock the {n}", "!unlock the {n}", "is the {n} locked", "!lock the {n} please"],
    "sensor": ["what does the {n} say", "what's the {n} reading", "read the {n}",
               "what is the {n} showing"],
    "binary_sensor": ["is the {n} triggered", "what is the {n} showing", "check the {n}"],
    "vacuum": ["!start the {n}", "!send the {n} back to its dock", "!pause the {n}"],
    "scene": ["!activate {n}", "!turn on the {n} scene", "!activate the {n} scene", "{n} please"],
    "script": ["!run {n}", "!start the {n} script", "!run the {n} script"],
}
ZH_NAME: dict[str, list[str]] = {
    "light": ["!打开{n}", "!把{n}关掉", "!关掉{n}", "{n}关一下", "!把{n}调到50%",
              "!把{n}的亮度调低一点", "!开一下{n}"],
    "switch": ["!打开{n}", "!把{n}关了", "!关闭{n}", "{n}开一下"],
    "fan": ["!打开{n}", "!把{n}关掉", "!把{n}调到三档", "{n}关一下"],
    "climate": ["!把{n}调到26度", "!关掉{n}", "{n}现在设定的是多少度", "!把{n}温度调高一点"],
    "cover": ["!打开{n}", "!把{n}拉上", "!关上{n}", "!把{n}开到一半"],
    "media_player": ["!暂停{n}", "!把{n}的音量调大", "!用{n}放点音乐", "{n}下一首", "!把{n}静音",
                     "!关掉{n}"],
    "lock": ["!锁上{n}", "!把{n}解锁", "{n}锁好了吗"],
    "sensor": ["{n}现在是多少", "{n}的读数是多少", "看一下{n}", "{n}显示多少"],
    "binary_sensor": ["{n}有没有触发", "{n}现在什么状态", "看一下{n}"],
    "vacuum": ["!启动{n}", "!让{n}开始打扫", "!让{n}回去充电", "!暂停{n}"],
    "scene": ["!打开{n}", "!启动{n}", "!切换到{n}"],
    "script": ["!执行{n}", "!运行{n}"],
}

# (first turn naming the entity, pronoun follow-up)
EN_FOLLOWUP: dict[str, list[tuple[str, str]]] = {
    "power": [("!turn on the {n}", "turn it off"), ("!switch the {n} on", "now turn it off again"),
              ("!turn off the {n}", "actually, turn it back on")],
    "cover": [("!open the {n}", "close it again"), ("!close the {n}", "open it halfway")],
    "lock": [("!lock the {n}", "is it locked now?"), ("!unlock the {n}", "lock it again")],
    "climate": [("!set the {n} to 21 degrees", "make it 23 instead"),
                ("!turn on the {n}", "turn it off")],
    "media_player": [("!play some music on the {n}", "pause it"),
                     ("!turn on the {n}", "turn it up")],
    "vacuum": [("!start the {n}", "send it back to the dock")],
}
ZH_FOLLOWUP: dict[str, list[tuple[str, str]]] = {
    "power": [("!打开{n}", "把它关掉"), ("!把{n}关了", "算了，再把它打开"),
              ("!开一下{n}", "再把它关了")],
    "cover": [("!打开{n}", "把它关上"), ("!把{n}拉上", "再把它打开")],
    "lock": [("!锁上{n}", "它锁好了吗"), ("!把{n}解锁", "再把它锁上")],
    "climate": [("!把{n}调到26度", "把它调到24度"), ("!打开{n}", "把它关掉")],
    "media_player": [("!用{n}放点音乐", "把它暂停"), ("!打开{n}", "把它音量调大一点")],
    "vacuum": [("!启动{n}", "让它回去充电")],
}
FOLLOWUP_GROUP = {"light": "power", "switch": "power", "fan": "power", "cover": "cover",
                  "lock": "lock", "climate": "climate", "media_player": "media_player",
                  "vacuum": "vacuum"}


@dataclass(frozen=True)
class TypeWord:
    """A word for a kind of device and the (domain, device class) it targets."""

    domain: str
    device_class: str | None
    en: tuple[str, str]  # singular, plural
    zh: str
    group: str  # which templates fit: power, cover, media, lock, sensor, binary, climate
    weight: float = 1.0
    names: tuple[str, ...] = ()  # climate: every climate entity there must be called this


TYPE_WORDS: tuple[TypeWord, ...] = (
    TypeWord("light", None, ("light", "lights"), "灯", "power", 4.0),
    TypeWord("fan", None, ("fan", "fans"), "风扇", "power"),
    TypeWord("switch", "outlet", ("smart plug", "smart plugs"), "插座", "power"),
    TypeWord("cover", "blind", ("blind", "blinds"), "百叶窗", "cover"),
    TypeWord("cover", "curtain", ("curtain", "curtains"), "窗帘", "cover"),
    TypeWord("cover", "shade", ("shade", "shades"), "卷帘", "cover", 0.5),
    TypeWord("media_player", "tv", ("TV", "TVs"), "电视", "media"),
    TypeWord("media_player", "speaker", ("speaker", "speakers"), "音箱", "media"),
    TypeWord("lock", None, ("lock", "locks"), "门锁", "lock", 0.7),
    TypeWord("binary_sensor", "motion", ("motion sensor", "motion sensors"), "人体传感器",
             "binary", 0.7),
    TypeWord("sensor", "temperature", ("temperature sensor", "temperature sensors"),
             "温度传感器", "sensor", 0.7),
    TypeWord("climate", None, ("AC", "ACs"), "空调", "climate", 1.0,
             ("air conditioner", "ac", "aircon", "空调", "冷气")),
    TypeWord("climate", None, ("thermostat", "thermostats"), "温控器", "climate", 1.0,
             ("thermostat", "温控器")),
    TypeWord("climate", None, ("floor heating", "floor heating"), "地暖", "climate", 0.5,
             ("floor heating", "地暖")),
)

EN_AREA: dict[str, list[str]] = {
    "power": ["!turn off the {t} in {a}", "!turn on the {t} in {a}", "!switch the {t} in {a} off",
              "{A} {t} off", "{A} {t} on please", "!turn the {A} {t} on"],
    "cover": ["!close the {t} in {a}", "!open the {t} in {a}", "!open the {A} {t} halfway",
              "!lower the {t} in {a}"],
    "media": ["!pause the {t} in {a}", "!turn off the {t} in {a}", "!mute the {t} in {a}",
              "!turn the volume down on the {t} in {a}"],
    "lock": ["!lock the {t} in {a}", "!unlock the {t} in {a}", "check the {t} in {a}"],
    "binary": ["check the {t} in {a}", "show me the {t} in {a}"],
    "sensor": ["check the {t} in {a}", "read out the {t} in {a}", "show me the {t} in {a}"],
    "climate": ["!set the {t} in {a} to 21 degrees", "!turn off the {t} in {a}",
                "!turn the {A} {t} up", "!set the {A} {t} to 68"],
}
ZH_AREA: dict[str, list[str]] = {
    "power": ["!关掉{a}的{t}", "!打开{a}的{t}", "!把{a}的{t}都关了", "{a}的{t}全部打开",
              "{a}的{t}关一下", "!把{a}的{t}打开"],
    "cover": ["!把{a}的{t}拉上", "!打开{a}的{t}", "!关上{a}的{t}", "!把{a}的{t}开到一半"],
    "media": ["!暂停{a}的{t}", "!把{a}的{t}关掉", "!把{a}的{t}静音", "!把{a}的{t}音量调小"],
    "lock": ["!锁上{a}的{t}", "!把{a}的{t}解锁", "{a}的{t}锁好了吗"],
    "binary": ["{a}的{t}有没有触发", "看看{a}的{t}", "{a}的{t}现在什么状态"],
    "sensor": ["{a}的{t}读数是多少", "看看{a}的{t}", "{a}的{t}显示多少"],
    "climate": ["!把{a}的{t}调到26度", "!关掉{a}的{t}", "!打开{a}的{t}", "{a}的{t}调高一点"],
}
EN_FLOOR: dict[str, list[str]] = {
    "power": ["!turn off the {t} {f}", "!turn on all the {t} {f}", "!switch off every {t1} {f}",
              "{t} {f} off"],
    "cover": ["!close all the {t} {f}", "!open the {t} {f}"],
    "media": ["!pause the {t} {f}", "!turn off every {t1} {f}"],
    "lock": ["!lock all the {t} {f}", "!lock every {t1} {f}"],
    "binary": ["check all the {t} {f}", "show me the {t} {f}"],
}
ZH_FLOOR: dict[str, list[str]] = {
    "power": ["!关掉{f}的{t}", "!把{f}所有的{t}都打开", "{f}的{t}全部关掉", "!把{f}的{t}都关了"],
    "cover": ["!把{f}的{t}都拉上", "!打开{f}所有的{t}"],
    "media": ["!把{f}的{t}都关掉", "!暂停{f}所有的{t}"],
    "lock": ["!锁上{f}所有的{t}", "!把{f}的{t}都锁上"],
    "binary": ["看看{f}的{t}", "{f}的{t}有没有触发"],
}
EN_EXCEPT: dict[str, list[str]] = {
    "power": ["!turn off all the {t} except {a}", "!turn on the {t} everywhere except {a}",
              "!switch off every {t1} except the ones in {a}", "{t} off everywhere except {a}"],
    "cover": ["!close all the {t} except {a}", "!open every {t1} except the ones in {a}"],
    "media": ["!pause every {t1} except the ones in {a}", "!turn off all the {t} except {a}"],
    "lock": ["!lock all the {t} except {a}"],
}
ZH_EXCEPT: dict[str, list[str]] = {
    "power": ["除了{a}，把所有的{t}都关掉", "!关掉除了{a}以外所有的{t}",
              "所有的{t}都打开，{a}的除外", "!把{a}以外的{t}全部关了"],
    "cover": ["除了{a}，把所有的{t}都拉上", "!打开除了{a}以外所有的{t}"],
    "media": ["除了{a}，把所有的{t}都暂停", "!关掉除了{a}以外所有的{t}"],
    "lock": ["除了{a}，把所有的{t}都锁上"],
}
EN_ANSWER = ["the one in {a}", "in {a}", "{A}", "the {A} one"]
ZH_ANSWER = ["{a}的", "{a}那个", "是{a}的那个", "{a}"]

EN_WRAP = [("please ", ""), ("could you ", ""), ("can you ", "?"), ("", " please"),
           ("hey, ", ""), ("", " thanks")]
ZH_WRAP = [("帮我", ""), ("请", ""), ("麻烦", ""), ("", "吧"), ("给我", "")]

CASE_KINDS: dict[str, float] = {
    "name": 0.22, "area_type": 0.20, "floor_type": 0.10, "except": 0.08, "typo": 0.10,
    "followup": 0.10, "clarify": 0.10, "name_area": 0.10,
}

KEYBOARD = {
    "q": "wa", "w": "qes", "e": "wrd", "r": "etf", "t": "ryg", "y": "tuh", "u": "yij",
    "i": "uok", "o": "ipl", "p": "ol", "a": "qsz", "s": "adw", "d": "sfe", "f": "dgr",
    "g": "fht", "h": "gjy", "j": "hku", "k": "jli", "l": "ko", "z": "xa", "x": "zcs",
    "c": "xvd", "v": "cbf", "b": "vng", "n": "bmh", "m": "nj",
}


def _cf(text: str) -> str:
    return text.strip().casefold()


class HomeView:
    """Look-ups over a home dict for computing gold (README "Gold resolution")."""

    def __init__(self, home: dict[str, Any]) -> None:
        self.home = home
        self.language: str = home.get("language") or "en"
        self.entities: list[dict[str, Any]] = list(home.get("entities") or [])
        self.by_id = {e["entity_id"]: e for e in self.entities}
        self.areas = {a["area_id"]: a for a in home.get("areas") or []}
        self.floors = {f["floor_id"]: f for f in home.get("floors") or []}
        self.names: dict[str, list[str]] = defaultdict(list)  # casefolded name/alias → ids
        for e in self.entities:
            for surface in dict.fromkeys(_cf(s) for s in [e["name"], *e.get("aliases", [])]):
                self.names[surface].append(e["entity_id"])
        self.room_words = {_cf(s) for a in self.areas.values()
                           for s in [a["name"], *a.get("aliases", [])]}
        self.room_words |= {_cf(s) for f in self.floors.values()
                            for s in [f["name"], *f.get("aliases", [])]}

    def floor_of(self, entity: dict[str, Any]) -> str | None:
        area = self.areas.get(entity.get("area_id") or "")
        return area.get("floor_id") if area else None

    def matches(self, entity: dict[str, Any], tw: TypeWord) -> bool:
        return entity["domain"] == tw.domain and (
            tw.device_class is None or entity.get("device_class") == tw.device_class)

    def with_name(self, name: str) -> list[str]:
        return sorted(self.names.get(_cf(name), []))


@dataclass
class _TypeMembers:
    """Where the entities one type word targets are."""

    word: TypeWord
    by_area: dict[str, list[str]]
    by_floor: dict[str, list[str]]
    everywhere: list[str]
    surfaces: set[str]  # casefolded names and aliases of those entities


class _CaseMaker:
    def __init__(self, home: dict[str, Any], seed: int) -> None:
        self.view = HomeView(home)
        self.zh = self.view.language.startswith("zh")
        self.rng = random.Random(f"cases:{home.get('home_id')}:{seed}")
        self.seed = seed
        v = self.view
        # A name that is also a room, a floor or a type word ("Curtains", "空调") said alone
        # reads two ways (README: name vs. domain), so it is not used without a room.
        skip = v.room_words | {_cf(w) for tw in TYPE_WORDS for w in (*tw.en, tw.zh)}
        # Names (and aliases) only one entity has.
        self.unique: list[tuple[str, str, bool]] = []  # (entity_id, surface, is_alias)
        for e in v.entities:
            for i, surface in enumerate([e["name"], *e.get("aliases", [])]):
                cf = _cf(surface)
                if v.names[cf] == [e["entity_id"]] and cf not in skip:
                    self.unique.append((e["entity_id"], surface, i > 0))
        # Names several entities share, all of one domain.
        shared: dict[str, str] = {}
        for e in v.entities:
            cf = _cf(e["name"])
            ids = v.names[cf]
            if (len(ids) >= 2 and cf not in v.room_words
                    and len({v.by_id[i]["domain"] for i in ids}) == 1):
                shared.setdefault(cf, e["name"])
        # Said with a room ("the curtains in room 204") any shared name reads one way.
        self.shared_with_room = sorted(shared.values(), key=_cf)
        self.shared = [n for n in self.shared_with_room if _cf(n) not in skip]
        self.types: list[_TypeMembers] = []
        for tw in TYPE_WORDS:
            members = _TypeMembers(tw, defaultdict(list), defaultdict(list), [], set())
            for e in v.entities:
                if v.matches(e, tw):
                    members.everywhere.append(e["entity_id"])
                    members.surfaces.update(_cf(x) for x in [e["name"], *e.get("aliases", [])])
                    if e.get("area_id"):
                        members.by_area[e["area_id"]].append(e["entity_id"])
                    floor_id = v.floor_of(e)
                    if floor_id:
                        members.by_floor[floor_id].append(e["entity_id"])
            self.types.append(members)
        self._options: dict[str, dict[int, list[tuple[str, list[str]]]]] = {}
        self.vocab = {w for surface in v.names for w in re.findall(r"[a-z]+", surface)}

    # ---- wording ------------------------------------------------------------------------

    def say(self, text: str) -> str:
        """Spoken form of a home name: mostly lower-case in English."""
        if self.zh:
            return text
        return text.lower() if self.rng.random() < 0.7 else text

    def area_words(self, area: dict[str, Any]) -> tuple[str, str]:
        """({a}, {A}): the area after a preposition, and bare."""
        surface = area["name"]
        if area.get("aliases") and self.rng.random() < 0.2:
            surface = self.rng.choice(area["aliases"])
        bare = self.say(surface)
        if self.zh:
            return bare, bare
        needs_article = not re.match(r"(?i)(room|unit|office|suite|meeting room) ?\d", surface)
        return (f"the {bare}" if needs_article else bare), bare

    def floor_words(self, floor: dict[str, Any]) -> str:
        surface = self.rng.choice([floor["name"], *floor.get("aliases", [])])
        spoken = self.say(surface)
        if self.zh:
            return spoken
        low = surface.lower()
        if low in ("upstairs", "downstairs"):
            return spoken
        if low in ("basement", "cellar", "lower level"):
            return f"in the {spoken}"
        if re.fullmatch(r"(floor|level) \d+|b\d", low):
            return f"on {spoken}"
        return f"on the {spoken}"

    def fill(self, template: str, **slots: str) -> str:
        imperative = template.startswith("!")
        text = template.lstrip("!").format(**slots)
        if imperative and self.rng.random() < 0.35:
            prefix, suffix = self.rng.choice(ZH_WRAP if self.zh else EN_WRAP)
            text = f"{prefix}{text}{suffix}"
        return text

    def turn(self, text: str, gold: Sequence[str], kind: str, spec: dict[str, Any],
             clarify: bool = False, alt: Sequence[str] | None = None,
             note: str | None = None) -> dict[str, Any]:
        turn: dict[str, Any] = {"text": text, "context_area_id": None,
                                "gold_entity_ids": sorted(gold), "expect_clarification": clarify,
                                "gold_kind": kind, "gold_spec": spec}
        if alt is not None:
            turn["alt_gold_entity_ids"] = sorted(alt)
            turn["alt_gold_spec"] = {"name_reading": True}
            turn["gold_note"] = note or "name_collision"
        return turn

    def name_template(self, domain: str) -> str:
        return self.rng.choice((ZH_NAME if self.zh else EN_NAME)[domain])

    # ---- one case of each kind ------------------------------------------------------------

    def case_name(self) -> list[dict[str, Any]] | None:
        """(a) a name only one entity has."""
        pick = self._unique_pick()
        if pick is None:
            return None
        eid, surface = pick
        entity = self.view.by_id[eid]
        text = self.fill(self.name_template(entity["domain"]), n=self.say(surface))
        return [self.turn(text, [eid], "name", {"name": surface})]

    def _unique_pick(self, pred: Any = None) -> tuple[str, str] | None:
        pool = [u for u in self.unique if pred is None or pred(u)]
        if not pool:
            return None
        names = [u for u in pool if not u[2]]
        aliases = [u for u in pool if u[2]]
        source = aliases if aliases and (not names or self.rng.random() < 0.2) else names
        eid, surface, _ = self.rng.choice(source)
        return eid, surface

    def _choose(self, what: str) -> tuple[_TypeMembers, str, list[str]] | None:
        """A type word (by weight), then one of the places `what` allows for it."""
        per_type = self._options.get(what)
        if per_type is None:
            per_type = self._options[what] = {
                "area": self._area_options, "floor": self._floor_options,
                "except": self._except_options}[what]()
        keys = sorted(k for k, places in per_type.items() if places)
        if not keys:
            return None
        ti = self.rng.choices(keys, [TYPE_WORDS[k].weight for k in keys])[0]
        place, gold = self.rng.choice(per_type[ti])
        return self.types[ti], place, gold

    def _area_options(self) -> dict[int, list[tuple[str, list[str]]]]:
        v = self.view
        return {ti: [(area_id, sorted(ids)) for area_id, ids in sorted(m.by_area.items())
                     # "the AC" only where the room's climate entity is an AC, and so on.
                     if not m.word.names
                     or all(_cf(v.by_id[i]["name"]) in m.word.names for i in ids)]
                for ti, m in enumerate(self.types)}

    def _floor_options(self) -> dict[int, list[tuple[str, list[str]]]]:
        table = ZH_FLOOR if self.zh else EN_FLOOR
        return {ti: [(floor_id, sorted(ids)) for floor_id, ids in sorted(m.by_floor.items())]
                for ti, m in enumerate(self.types) if m.word.group in table}

    def _except_options(self) -> dict[int, list[tuple[str, list[str]]]]:
        table = ZH_EXCEPT if self.zh else EN_EXCEPT
        out: dict[int, list[tuple[str, list[str]]]] = {}
        for ti, m in enumerate(self.types):
            if m.word.group not in table:
                continue
            out[ti] = []
            for area_id, ids in sorted(m.by_area.items()):
                excluded = set(ids)
                gold = sorted(e for e in m.everywhere if e not in excluded)
                if gold:
                    out[ti].append((area_id, gold))
        return out

    def case_area_type(self) -> list[dict[str, Any]] | None:
        """(b) area + type word → every entity of that domain/class in the area."""
        chosen = self._choose("area")
        if chosen is None:
            return None
        members, area_id, gold = chosen
        tw = members.word
        a, a_bare = self.area_words(self.view.areas[area_id])
        t1, t = self._type_forms(tw, len(gold))
        template = self.rng.choice((ZH_AREA if self.zh else EN_AREA)[tw.group])
        text = self.fill(template, a=a, A=a_bare, t=t, t1=t1)
        kind = "area_domain" if tw.device_class is None else "area_device_class"
        spec = {"area": area_id, "domain": tw.domain, "device_class": tw.device_class}
        alt = self._name_reading(text, members, gold, area_id=area_id)
        return [self.turn(text, gold, kind, spec, alt=alt)]

    def _type_forms(self, tw: TypeWord, count: int) -> tuple[str, str]:
        if self.zh:
            return tw.zh, tw.zh
        return tw.en[0], (tw.en[0] if count == 1 else tw.en[1])

    def _name_reading(self, text: str, members: _TypeMembers, gold: list[str],
                      area_id: str | None = None, floor_id: str | None = None
                      ) -> list[str] | None:
        """README "Name collision": the sentence holds the full name of an entity of the type;
        that name-only reading becomes the alternative gold."""
        v = self.view
        tw = members.word
        low = text.casefold()
        found = {s for s in members.surfaces if s in low and (
            self.zh or re.search(rf"(?<!\w){re.escape(s)}(?:e?s)?(?!\w)", low))}
        if not found:
            return None
        longest = {s for s in found if not any(s != o and s in o for o in found)}
        room_names: set[str] = set()
        if area_id:
            a = v.areas[area_id]
            room_names = {_cf(s) for s in [a["name"], *a.get("aliases", [])]}
        if floor_id:
            f = v.floors[floor_id]
            room_names |= {_cf(s) for s in [f["name"], *f.get("aliases", [])]}
        reading: set[str] = set()
        for surface in sorted(longest):
            for eid in v.names[surface]:
                e = v.by_id[eid]
                if not v.matches(e, tw):
                    continue
                # A name that holds the room ("Kitchen Fan") is read alone; one that does not
                # ("窗帘" in "客厅的窗帘") keeps the room of the sentence.
                in_name = any(r in surface for r in room_names)
                if not in_name and area_id and e.get("area_id") != area_id:
                    continue
                if not in_name and floor_id and v.floor_of(e) != floor_id:
                    continue
                reading.add(eid)
        if not reading or sorted(reading) == sorted(gold):
            return None
        return sorted(reading)

    def case_floor_type(self) -> list[dict[str, Any]] | None:
        """(c) floor + type word → every entity of that type in the floor's areas."""
        chosen = self._choose("floor")
        if chosen is None:
            return None
        members, floor_id, gold = chosen
        tw = members.word
        t1, t = self._type_forms(tw, len(gold))
        f = self.floor_words(self.view.floors[floor_id])
        template = self.rng.choice((ZH_FLOOR if self.zh else EN_FLOOR)[tw.group])
        text = self.fill(template, f=f, t=t, t1=t1)
        kind = "floor_domain" if tw.device_class is None else "floor_device_class"
        spec = {"floor": floor_id, "domain": tw.domain, "device_class": tw.device_class}
        alt = self._name_reading(text, members, gold, floor_id=floor_id)
        return [self.turn(text, gold, kind, spec, alt=alt)]

    def case_except(self) -> list[dict[str, Any]] | None:
        """(d) all of a type in the home (in an area or not) except one area's."""
        chosen = self._choose("except")
        if chosen is None:
            return None
        members, area_id, gold = chosen
        tw = members.word
        a, a_bare = self.area_words(self.view.areas[area_id])
        t1, t = self._type_forms(tw, len(gold))
        template = self.rng.choice((ZH_EXCEPT if self.zh else EN_EXCEPT)[tw.group])
        text = self.fill(template, a=a, A=a_bare, t=t, t1=t1)
        spec = {"domain": tw.domain, "device_class": tw.device_class, "exclude_area": area_id}
        return [self.turn(text, gold, "except", spec)]

    def case_typo(self) -> list[dict[str, Any]] | None:
        """(e) a unique name with one letter wrong, dropped or doubled (English only)."""
        if self.zh:
            return None
        pick = self._unique_pick(lambda u: any(len(w) >= 5 and w.isalpha()
                                               for w in u[1].split()))
        if pick is None:
            return None
        eid, surface = pick
        words = surface.split()
        long_words = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
        for _ in range(20):
            i = self.rng.choice(long_words)
            typo = self._misspell(words[i].lower())
            if typo not in self.vocab:
                break
        else:
            return None
        spoken = " ".join(typo if j == i else w.lower() for j, w in enumerate(words))
        entity = self.view.by_id[eid]
        text = self.fill(self.name_template(entity["domain"]), n=spoken)
        return [self.turn(text, [eid], "typo", {"name": surface, "typo": spoken})]

    def _misspell(self, word: str) -> str:
        pos = self.rng.randrange(1, len(word) - 1)  # keep the first and last letters
        op = self.rng.choice(("substitute", "substitute", "drop", "double"))
        if op == "drop":
            return word[:pos] + word[pos + 1:]
        if op == "double":
            return word[:pos] + word[pos] + word[pos:]
        neighbours = KEYBOARD.get(word[pos], "e")
        return word[:pos] + self.rng.choice(neighbours) + word[pos + 1:]

    def case_followup(self) -> list[dict[str, Any]] | None:
        """(f) a unique name, then "turn it off" / "把它关掉" about the same entity."""
        pick = self._unique_pick(
            lambda u: self.view.by_id[u[0]]["domain"] in FOLLOWUP_GROUP)
        if pick is None:
            return None
        eid, surface = pick
        group = FOLLOWUP_GROUP[self.view.by_id[eid]["domain"]]
        first, second = self.rng.choice((ZH_FOLLOWUP if self.zh else EN_FOLLOWUP)[group])
        return [self.turn(self.fill(first, n=self.say(surface)), [eid], "name",
                          {"name": surface}),
                self.turn(second, [eid], "followup", {"reference": "previous_turn"})]

    def case_clarify(self) -> list[dict[str, Any]] | None:
        """(g) a name several rooms share, said without a room: ask back; then, sometimes,
        the answer naming one room."""
        if not self.shared:
            return None
        name = self.rng.choice(self.shared)
        gold = self.view.with_name(name)
        domain = self.view.by_id[gold[0]]["domain"]
        text = self.fill(self.name_template(domain), n=self.say(name))
        turns = [self.turn(text, gold, "clarify", {"name": name}, clarify=True)]
        by_area: dict[str, list[str]] = defaultdict(list)
        for eid in gold:
            area_id = self.view.by_id[eid].get("area_id")
            if area_id:
                by_area[area_id].append(eid)
        single = sorted(a for a, ids in by_area.items() if len(ids) == 1)
        if single and self.rng.random() < 0.5:
            area_id = self.rng.choice(single)
            a, a_bare = self.area_words(self.view.areas[area_id])
            answer = self.rng.choice(ZH_ANSWER if self.zh else EN_ANSWER).format(a=a, A=a_bare)
            turns.append(self.turn(answer, by_area[area_id], "clarify_answer",
                                   {"name": name, "area": area_id}))
        return turns

    def case_name_area(self) -> list[dict[str, Any]] | None:
        """A shared name said with its room: "the ceiling light in room 204" / "204房间的吸顶灯"."""
        if not self.shared_with_room:
            return None
        name = self.rng.choice(self.shared_with_room)
        by_area: dict[str, list[str]] = defaultdict(list)
        for eid in self.view.with_name(name):
            area_id = self.view.by_id[eid].get("area_id")
            if area_id:
                by_area[area_id].append(eid)
        single = sorted(a for a, ids in by_area.items() if len(ids) == 1)
        if not single:
            return None
        area_id = self.rng.choice(single)
        gold = by_area[area_id]
        a, a_bare = self.area_words(self.view.areas[area_id])
        spoken = self.say(name)
        if self.zh:
            n = f"{a}的{spoken}"
        else:
            n = f"{spoken} in {a}" if self.rng.random() < 0.7 else f"{a_bare} {spoken}"
        domain = self.view.by_id[gold[0]]["domain"]
        text = self.fill(self.name_template(domain), n=n)
        return [self.turn(text, gold, "name_area", {"name": name, "area": area_id})]


def make_cases(home: dict[str, Any], n: int, seed: int = 0) -> list[dict[str, Any]]:
    """`n` benchmark cases for `home` (README "Case format"), gold from the home data."""
    maker = _CaseMaker(home, seed)
    builders = {
        "name": maker.case_name, "area_type": maker.case_area_type,
        "floor_type": maker.case_floor_type, "except": maker.case_except,
        "typo": maker.case_typo, "followup": maker.case_followup,
        "clarify": maker.case_clarify, "name_area": maker.case_name_area,
    }
    kinds = [k for k in CASE_KINDS if not (maker.zh and k == "typo")]
    weights = [CASE_KINDS[k] for k in kinds]
    cases: list[dict[str, Any]] = []
    failures = 0
    while len(cases) < n:
        kind = maker.rng.choices(kinds, weights)[0]
        turns = builders[kind]()
        if turns is None:
            failures += 1
            if failures > 50 * max(n, 1):
                raise ValueError("this home cannot produce the requested cases")
            continue
        cases.append({
            "case_id": f"syn-{home.get('home_id')}-{len(cases):05d}-{kind}",
            "suite": "synthetic",
            "language": maker.view.language,
            "home_id": home.get("home_id"),
            "intent": None,
            "slots": None,
            "source": {"generator": "bench.synthetic", "seed": seed, "kind": kind},
            "turns": turns,
        })
    return cases


def case_kind(case: dict[str, Any]) -> str:
    """The generator's kind of a case ("name", "area_type", …)."""
    source = case.get("source") or {}
    return str(source.get("kind") or case.get("turns", [{}])[0].get("gold_kind") or "?")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--language", choices=("en", "zh"), default="en")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--home", required=True, help="write the home JSON here")
    parser.add_argument("--cases", help="write cases (JSON lines) here")
    parser.add_argument("--n-cases", type=int, default=300)
    args = parser.parse_args(argv)
    home = make_home(args.entities, args.language, args.seed)
    with open(args.home, "w", encoding="utf-8") as fh:
        json.dump(home, fh, ensure_ascii=False, indent=1)
    if args.cases:
        with open(args.cases, "w", encoding="utf-8") as fh:
            for case in make_cases(home, args.n_cases, args.seed):
                fh.write(json.dumps(case, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
