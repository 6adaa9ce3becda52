from custom_components.context_retrieval.core import retrieve


def test_turn_off_all_lights_except_bedroom(small_en_index):
    results = retrieve("turn off all the lights except the bedroom", small_en_index)
    assert len(results) == 1
    assert set(results[0].selected_ids) == {
        "light.living_ceiling",
        "light.living_lamp",
        "light.kitchen_ceiling",
        "light.kitchen_island",
        "light.office_desk",
        "switch.garage_light",
    }
