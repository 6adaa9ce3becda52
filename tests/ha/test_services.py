from homeassistant.core import HomeAssistant

from custom_components.context_retrieval.const import DOMAIN


async def test_retrieve_service_over_the_live_index(hass: HomeAssistant, loaded_entry) -> None:
    response = await hass.services.async_call(
        DOMAIN, "retrieve", {"text": "关掉除了主卧以外的所有灯"}, blocking=True,
        return_response=True)
    selected = {c["entity_id"] for c in response["commands"][0]["selected"]}
    assert selected == {"light.living_ceiling", "light.living_lamp", "light.kitchen_ceiling",
                        "light.study_desk"}
    assert "switch.secret_plug" not in str(response)
