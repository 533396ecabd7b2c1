// A plain helper (not a Convex function): talks to the weather service and reports failures as data.
export type WeatherResult = { ok: true; temperatureC: number } | { ok: false; status: number };

export async function fetchCurrentTemperature(city: string): Promise<WeatherResult> {
  const url = new URL("https://weather.example.com/v1/current");
  url.searchParams.set("city", city);
  const response = await fetch(url.toString(), { method: "GET" });
  if (response.status < 200 || response.status >= 300) {
    return { ok: false, status: response.status };
  }
  const data: unknown = await response.json();
  return { ok: true, temperatureC: (data as { temperatureC: number }).temperatureC };
}
