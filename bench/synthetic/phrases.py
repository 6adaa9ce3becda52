"""The words synthetic cases are made of: sentence templates per kind of case and language,
type words, answers to clarifications, polite wrappers and keyboard neighbours for typos."""

from __future__ import annotations

from dataclasses import dataclass

# Templates: "{n}" a name, "{a}" an area as said after a preposition ("the kitchen", "room 204"),
# "{A}" the bare area ("kitchen"), "{f}" a floor with its preposition ("on the second floor",
# "upstairs"), "{t}" a type word (plural in English unless there is only one), "{t1}" its
# singular. A leading "!" marks an imperative that may get a polite wrapper ("could you …",
# "帮我…"); the "!" itself is not part of the sentence.

EN_NAME: dict[str, list[str]] = {
    "light": [
        "!turn on the {n}",
        "!turn off the {n}",
        "!switch the {n} off",
        "!dim the {n} to 30 percent",
        "!set the {n} to 50%",
        "{n} off",
        "{n} on please",
        "!turn the {n} on",
    ],
    "switch": [
        "!turn on the {n}",
        "!switch off the {n}",
        "!turn the {n} on",
        "!power off the {n}",
        "{n} off",
    ],
    "fan": [
        "!turn on the {n}",
        "!switch the {n} off",
        "!set the {n} to 50 percent",
        "!turn off the {n}",
    ],
    "climate": [
        "!set the {n} to 21 degrees",
        "!turn the {n} up to 72",
        "!turn off the {n}",
        "what is the {n} set to",
        "!set the {n} to heat",
    ],
    "cover": [
        "!open the {n}",
        "!close the {n}",
        "!open the {n} halfway",
        "!lower the {n}",
        "!set the {n} to 30 percent",
    ],
    "media_player": [
        "!pause the {n}",
        "!turn up the volume on the {n}",
        "!play some jazz on the {n}",
        "!skip to the next song on the {n}",
        "!mute the {n}",
        "!turn off the {n}",
    ],
    "lock": ["!lock the {n}", "!unlock the {n}", "is the {n} locked", "!lock the {n} please"],
    "sensor": [
        "what does the {n} say",
        "what's the {n} reading",
        "read the {n}",
        "what is the {n} showing",
    ],
    "binary_sensor": ["is the {n} triggered", "what is the {n} showing", "check the {n}"],
    "vacuum": ["!start the {n}", "!send the {n} back to its dock", "!pause the {n}"],
    "scene": ["!activate {n}", "!turn on the {n} scene", "!activate the {n} scene", "{n} please"],
    "script": ["!run {n}", "!start the {n} script", "!run the {n} script"],
}
ZH_NAME: dict[str, list[str]] = {
    "light": [
        "!打开{n}",
        "!把{n}关掉",
        "!关掉{n}",
        "{n}关一下",
        "!把{n}调到50%",
        "!把{n}的亮度调低一点",
        "!开一下{n}",
    ],
    "switch": ["!打开{n}", "!把{n}关了", "!关闭{n}", "{n}开一下"],
    "fan": ["!打开{n}", "!把{n}关掉", "!把{n}调到三档", "{n}关一下"],
    "climate": ["!把{n}调到26度", "!关掉{n}", "{n}现在设定的是多少度", "!把{n}温度调高一点"],
    "cover": ["!打开{n}", "!把{n}拉上", "!关上{n}", "!把{n}开到一半"],
    "media_player": [
        "!暂停{n}",
        "!把{n}的音量调大",
        "!用{n}放点音乐",
        "{n}下一首",
        "!把{n}静音",
        "!关掉{n}",
    ],
    "lock": ["!锁上{n}", "!把{n}解锁", "{n}锁好了吗"],
    "sensor": ["{n}现在是多少", "{n}的读数是多少", "看一下{n}", "{n}显示多少"],
    "binary_sensor": ["{n}有没有触发", "{n}现在什么状态", "看一下{n}"],
    "vacuum": ["!启动{n}", "!让{n}开始打扫", "!让{n}回去充电", "!暂停{n}"],
    "scene": ["!打开{n}", "!启动{n}", "!切换到{n}"],
    "script": ["!执行{n}", "!运行{n}"],
}

# (first turn naming the entity, pronoun follow-up)
EN_FOLLOWUP: dict[str, list[tuple[str, str]]] = {
    "power": [
        ("!turn on the {n}", "turn it off"),
        ("!switch the {n} on", "now turn it off again"),
        ("!turn off the {n}", "actually, turn it back on"),
    ],
    "cover": [("!open the {n}", "close it again"), ("!close the {n}", "open it halfway")],
    "lock": [("!lock the {n}", "is it locked now?"), ("!unlock the {n}", "lock it again")],
    "climate": [
        ("!set the {n} to 21 degrees", "make it 23 instead"),
        ("!turn on the {n}", "turn it off"),
    ],
    "media_player": [
        ("!play some music on the {n}", "pause it"),
        ("!turn on the {n}", "turn it up"),
    ],
    "vacuum": [("!start the {n}", "send it back to the dock")],
}
ZH_FOLLOWUP: dict[str, list[tuple[str, str]]] = {
    "power": [
        ("!打开{n}", "把它关掉"),
        ("!把{n}关了", "算了，再把它打开"),
        ("!开一下{n}", "再把它关了"),
    ],
    "cover": [("!打开{n}", "把它关上"), ("!把{n}拉上", "再把它打开")],
    "lock": [("!锁上{n}", "它锁好了吗"), ("!把{n}解锁", "再把它锁上")],
    "climate": [("!把{n}调到26度", "把它调到24度"), ("!打开{n}", "把它关掉")],
    "media_player": [("!用{n}放点音乐", "把它暂停"), ("!打开{n}", "把它音量调大一点")],
    "vacuum": [("!启动{n}", "让它回去充电")],
}
FOLLOWUP_GROUP = {
    "light": "power",
    "switch": "power",
    "fan": "power",
    "cover": "cover",
    "lock": "lock",
    "climate": "climate",
    "media_player": "media_player",
    "vacuum": "vacuum",
}


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
    # Home Assistant's Chinese words: 遮阳帘 is a shade, 卷帘 a blind (its cover_classes list);
    # the roller shades are still called 卷帘 by their owners (`entities`).
    TypeWord("cover", "shade", ("shade", "shades"), "遮阳帘", "cover", 0.5),
    TypeWord("media_player", "tv", ("TV", "TVs"), "电视", "media"),
    TypeWord("media_player", "speaker", ("speaker", "speakers"), "音箱", "media"),
    TypeWord("lock", None, ("lock", "locks"), "门锁", "lock", 0.7),
    TypeWord(
        "binary_sensor", "motion", ("motion sensor", "motion sensors"), "人体传感器", "binary", 0.7
    ),
    TypeWord(
        "sensor",
        "temperature",
        ("temperature sensor", "temperature sensors"),
        "温度传感器",
        "sensor",
        0.7,
    ),
    TypeWord(
        "climate",
        None,
        ("AC", "ACs"),
        "空调",
        "climate",
        1.0,
        ("air conditioner", "ac", "aircon", "空调", "冷气"),
    ),
    TypeWord(
        "climate",
        None,
        ("thermostat", "thermostats"),
        "温控器",
        "climate",
        1.0,
        ("thermostat", "温控器"),
    ),
    TypeWord(
        "climate",
        None,
        ("floor heating", "floor heating"),
        "地暖",
        "climate",
        0.5,
        ("floor heating", "地暖"),
    ),
)

EN_AREA: dict[str, list[str]] = {
    "power": [
        "!turn off the {t} in {a}",
        "!turn on the {t} in {a}",
        "!switch the {t} in {a} off",
        "{A} {t} off",
        "{A} {t} on please",
        "!turn the {A} {t} on",
    ],
    "cover": [
        "!close the {t} in {a}",
        "!open the {t} in {a}",
        "!open the {A} {t} halfway",
        "!lower the {t} in {a}",
    ],
    "media": [
        "!pause the {t} in {a}",
        "!turn off the {t} in {a}",
        "!mute the {t} in {a}",
        "!turn the volume down on the {t} in {a}",
    ],
    "lock": ["!lock the {t} in {a}", "!unlock the {t} in {a}", "check the {t} in {a}"],
    "binary": ["check the {t} in {a}", "show me the {t} in {a}"],
    "sensor": ["check the {t} in {a}", "read out the {t} in {a}", "show me the {t} in {a}"],
    "climate": [
        "!set the {t} in {a} to 21 degrees",
        "!turn off the {t} in {a}",
        "!turn the {A} {t} up",
        "!set the {A} {t} to 68",
    ],
}
ZH_AREA: dict[str, list[str]] = {
    "power": [
        "!关掉{a}的{t}",
        "!打开{a}的{t}",
        "!把{a}的{t}都关了",
        "{a}的{t}全部打开",
        "{a}的{t}关一下",
        "!把{a}的{t}打开",
    ],
    "cover": ["!把{a}的{t}拉上", "!打开{a}的{t}", "!关上{a}的{t}", "!把{a}的{t}开到一半"],
    "media": ["!暂停{a}的{t}", "!把{a}的{t}关掉", "!把{a}的{t}静音", "!把{a}的{t}音量调小"],
    "lock": ["!锁上{a}的{t}", "!把{a}的{t}解锁", "{a}的{t}锁好了吗"],
    "binary": ["{a}的{t}有没有触发", "看看{a}的{t}", "{a}的{t}现在什么状态"],
    "sensor": ["{a}的{t}读数是多少", "看看{a}的{t}", "{a}的{t}显示多少"],
    "climate": ["!把{a}的{t}调到26度", "!关掉{a}的{t}", "!打开{a}的{t}", "{a}的{t}调高一点"],
}
EN_FLOOR: dict[str, list[str]] = {
    "power": [
        "!turn off the {t} {f}",
        "!turn on all the {t} {f}",
        "!switch off every {t1} {f}",
        "{t} {f} off",
    ],
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
    "power": [
        "!turn off all the {t} except {a}",
        "!turn on the {t} everywhere except {a}",
        "!switch off every {t1} except the ones in {a}",
        "{t} off everywhere except {a}",
    ],
    "cover": ["!close all the {t} except {a}", "!open every {t1} except the ones in {a}"],
    "media": ["!pause every {t1} except the ones in {a}", "!turn off all the {t} except {a}"],
    "lock": ["!lock all the {t} except {a}"],
}
ZH_EXCEPT: dict[str, list[str]] = {
    "power": [
        "除了{a}，把所有的{t}都关掉",
        "!关掉除了{a}以外所有的{t}",
        "所有的{t}都打开，{a}的除外",
        "!把{a}以外的{t}全部关了",
    ],
    "cover": ["除了{a}，把所有的{t}都拉上", "!打开除了{a}以外所有的{t}"],
    "media": ["除了{a}，把所有的{t}都暂停", "!关掉除了{a}以外所有的{t}"],
    "lock": ["除了{a}，把所有的{t}都锁上"],
}
EN_ANSWER = ["the one in {a}", "in {a}", "{A}", "the {A} one"]
ZH_ANSWER = ["{a}的", "{a}那个", "是{a}的那个", "{a}"]

EN_WRAP = [
    ("please ", ""),
    ("could you ", ""),
    ("can you ", "?"),
    ("", " please"),
    ("hey, ", ""),
    ("", " thanks"),
]
ZH_WRAP = [("帮我", ""), ("请", ""), ("麻烦", ""), ("", "吧"), ("给我", "")]

CASE_KINDS: dict[str, float] = {
    "name": 0.22,
    "area_type": 0.20,
    "floor_type": 0.10,
    "except": 0.08,
    "typo": 0.10,
    "followup": 0.10,
    "clarify": 0.10,
    "name_area": 0.10,
}

KEYBOARD = {
    "q": "wa",
    "w": "qes",
    "e": "wrd",
    "r": "etf",
    "t": "ryg",
    "y": "tuh",
    "u": "yij",
    "i": "uok",
    "o": "ipl",
    "p": "ol",
    "a": "qsz",
    "s": "adw",
    "d": "sfe",
    "f": "dgr",
    "g": "fht",
    "h": "gjy",
    "j": "hku",
    "k": "jli",
    "l": "ko",
    "z": "xa",
    "x": "zcs",
    "c": "xvd",
    "v": "cbf",
    "b": "vng",
    "n": "bmh",
    "m": "nj",
}
