"""The rooms of a synthetic home or building: what each kind of room holds, the rooms of a
house and of a building, and the names of floors, labels and device models."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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
        "christmas_tree pm25",
        1.6,
    ),
    "kitchen": _room(
        ["ceiling_light", "pendant", "cabinet_lights", "kettle", "coffee_maker"],
        "water_dispenser exhaust_fan smoke leak temperature blinds speaker smart_plug:2 power "
        "downlights spotlight:2",
        1.3,
    ),
    "dining": _room(
        ["chandelier", "wall_light", "curtains"],
        "spotlight:2 speaker blinds motion temperature downlights smart_plug pendant",
        0.8,
    ),
    "bedroom": _room(
        ["ceiling_light", "bedside_lamp", "curtains", ("air_conditioner", "thermostat")],
        "bedside_lamp light_strip night_light desk_lamp floor_lamp blinds speaker tv motion "
        "temperature humidity smart_plug:2 door_sensor window_sensor scene_sleep "
        "scene_reading script_bedtime ceiling_fan spotlight downlights",
        1.1,
    ),
    "bathroom": _room(
        ["ceiling_light", "mirror_light", "exhaust_fan"],
        "towel_rail leak humidity motion night_light speaker floor_heating:0.5 downlights",
        0.6,
    ),
    "office": _room(
        [("ceiling_light", "panel_light"), "desk_lamp", "blinds", "monitor"],
        "printer desk_fan speaker air_conditioner temperature co2 smart_plug:2 motion "
        "floor_lamp spotlight",
        0.9,
    ),
    "hallway": _room(
        [("ceiling_light", "downlights"), "motion"],
        "spotlight:2 night_light wall_light smoke door_sensor illuminance downlights",
        0.4,
    ),
    "garage": _room(
        ["ceiling_light", "garage_door"],
        "spotlight motion smart_plug door_sensor power washing_machine",
        0.6,
    ),
    "laundry": _room(
        ["ceiling_light", "washing_machine", "leak"],
        "dehumidifier humidity smart_plug exhaust_fan",
        0.5,
    ),
    "entrance": _room(
        [("ceiling_light", "chandelier"), "front_door", "motion", "door_sensor"],
        "porch_light spotlight downlights wall_light smoke speaker scene_welcome "
        "air_conditioner occupancy tv",
        0.8,
    ),
    "outdoor": _room(
        ["garden_lights", "motion"],
        "porch_light fountain spotlight:2 temperature humidity awning illuminance smart_plug",
        0.7,
    ),
    "gym": _room(
        ["ceiling_light", "tv", "ceiling_fan"],
        "speaker:2 air_conditioner spotlight motion temperature humidity smart_plug downlights",
        0.9,
    ),
    "balcony": _room(
        ["ceiling_light"], "garden_lights awning smart_plug temperature humidity motion", 0.4
    ),
    "hotel_room": _room(
        [
            "ceiling_light",
            "bedside_lamp",
            "bedside_lamp",
            "curtains",
            "air_conditioner",
            "tv",
            "door_lock",
            "occupancy",
        ],
        "mirror_light exhaust_fan minibar kettle speaker blinds light_strip spotlight:2 "
        "downlights:2 temperature humidity power:2 energy door_sensor window_sensor smoke "
        "scene_welcome scene_sleep script_turnover desk_lamp floor_lamp smart_plug:3 "
        "night_light towel_rail",
        1.0,
    ),
    "meeting": _room(
        [
            "panel_light",
            "downlights",
            "blinds",
            ("projector", "tv"),
            "occupancy",
            "air_conditioner",
        ],
        "spotlight:2 speaker temperature co2 smart_plug:2 scene_meeting script_presentation "
        "monitor motion roller_shade",
        0.9,
    ),
    "kitchenette": _room(
        ["ceiling_light", "kettle", "water_dispenser"],
        "coffee_maker exhaust_fan smoke leak smart_plug power downlights",
        0.6,
    ),
    "lobby": _room(
        ["chandelier", "front_door", "occupancy", "speaker"],
        "downlights:2 spotlight:2 wall_light tv air_conditioner door_sensor smoke "
        "scene_welcome temperature co2 smart_plug back_door",
        2.0,
    ),
    "restaurant": _room(
        ["chandelier", "downlights", "speaker", "blinds", "air_conditioner"],
        "spotlight:2 wall_light pendant tv motion temperature co2 scene_welcome smart_plug:2 "
        "coffee_maker",
        1.6,
    ),
    "parking": _room(
        ["ceiling_light", "garage_door", "motion"],
        "spotlight:2 smart_plug door_sensor power co2",
        1.0,
    ),
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


def room_spec(row: RoomRow, level: int) -> RoomSpec:
    area_id, kind, en, en_aliases, zh, zh_aliases, _ = row
    return RoomSpec(area_id, kind, en, zh, en_aliases, zh_aliases, level)


# level → (floor_id, en name, en aliases, zh name, zh aliases)
HOUSE_FLOORS: dict[int, tuple[str, str, tuple[str, ...], str, tuple[str, ...]]] = {
    -1: ("basement", "Basement", ("Lower Level", "Cellar"), "地下室", ("负一楼", "B1")),
    0: (
        "ground_floor",
        "Downstairs",
        ("Ground Floor", "Main Floor"),
        "一楼",
        ("楼下", "一层", "1楼"),
    ),
    1: ("upstairs", "Upstairs", ("Second Floor", "Top Floor"), "二楼", ("楼上", "二层", "2楼")),
}

HOUSE_ROOMS: tuple[RoomRow, ...] = (
    (
        "living_room",
        "living",
        "Living Room",
        ("Lounge", "Family Room"),
        "客厅",
        ("起居室", "大厅"),
        0,
    ),
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


EN_ORDINALS = (
    "Ground",
    "First",
    "Second",
    "Third",
    "Fourth",
    "Fifth",
    "Sixth",
    "Seventh",
    "Eighth",
    "Ninth",
    "Tenth",
    "Eleventh",
    "Twelfth",
    "Thirteenth",
    "Fourteenth",
)
EN_SUFFIXED = (
    "0th",
    "1st",
    "2nd",
    "3rd",
    "4th",
    "5th",
    "6th",
    "7th",
    "8th",
    "9th",
    "10th",
    "11th",
    "12th",
    "13th",
    "14th",
)
ZH_NUMBERS = (
    "零",
    "一",
    "二",
    "三",
    "四",
    "五",
    "六",
    "七",
    "八",
    "九",
    "十",
    "十一",
    "十二",
    "十三",
    "十四",
)

LABELS_EN = ("christmas", "energy saver", "night mode", "guest", "maintenance", "vip", "outdoor")
LABELS_ZH = ("圣诞装饰", "节能", "夜间模式", "访客", "维修", "贵宾", "户外")

MODELS: dict[str, tuple[str, ...]] = {
    "light": (
        "Philips Hue White A19",
        "Philips Hue Go",
        "IKEA TRADFRI LED1836G9",
        "Yeelight YLXD50YL",
        "Nanoleaf Essentials A19",
        "Aqara Ceiling Light T1M",
        "Xiaomi Mijia Desk Lamp 1S",
        "Yeelight 吸顶灯 Pro",
        "欧普 智能筒灯",
    ),
    "switch": (
        "Shelly Plus 1PM",
        "TP-Link Kasa KP115",
        "Sonoff S31",
        "小米智能插座3",
        "Aqara Smart Plug T1",
    ),
    "fan": ("Dyson Pure Cool TP07", "Xiaomi Smart Standing Fan 2", "Hunter Signal"),
    "climate": (
        "ecobee Smart Thermostat Premium",
        "Nest Learning Thermostat",
        "格力 云佳 KFR-35GW",
        "Daikin BRP072C42",
        "Aqara Thermostat E1",
    ),
    "cover": ("IKEA FYRTUR", "Somfy Sonesse 30", "Aqara Curtain Driver E1", "杜亚 M1 电机"),
    "media_player": (
        "Sonos One",
        "Sonos Arc",
        "LG OLED C3",
        "Apple TV 4K",
        "小米电视 EA55",
        "Xiaomi Smart Speaker Pro",
    ),
    "lock": (
        "Yale Assure Lock 2",
        "Nuki Smart Lock 4.0",
        "August Wi-Fi Smart Lock",
        "小米智能门锁 Pro",
    ),
    "sensor": (
        "Aqara Temperature and Humidity Sensor T1",
        "Shelly H&T Gen3",
        "Shelly EM",
        "Xiaomi Mijia LYWSD03MMC",
        "IKEA VINDSTYRKA",
    ),
    "binary_sensor": (
        "Aqara Motion Sensor P1",
        "Aqara Door and Window Sensor",
        "Philips Hue Motion Sensor",
        "Aqara FP2 Presence Sensor",
        "小米烟雾报警器",
    ),
    "vacuum": ("Roborock S8 Pro Ultra", "iRobot Roomba j7+", "石头 G20"),
}


def area_count(n_entities: int) -> int:
    """About 10 areas for 100 entities, 45 for 1,000, 200 for 10,000 (0.5·n^0.65)."""
    return max(3, min(200, round(0.5 * max(n_entities, 1) ** 0.65)))
