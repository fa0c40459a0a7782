/** Reference data for the dynamic `/items` pages: a few of the cities a global audience is served from. */
export type EdgeLocation = { id: string; city: string; country: string };

export const EDGE_LOCATIONS: readonly EdgeLocation[] = [
  { id: "ams", city: "Amsterdam", country: "NL" },
  { id: "arn", city: "Stockholm", country: "SE" },
  { id: "bog", city: "Bogotá", country: "CO" },
  { id: "bom", city: "Mumbai", country: "IN" },
  { id: "cdg", city: "Paris", country: "FR" },
  { id: "cpt", city: "Cape Town", country: "ZA" },
  { id: "dfw", city: "Dallas", country: "US" },
  { id: "dxb", city: "Dubai", country: "AE" },
  { id: "eze", city: "Buenos Aires", country: "AR" },
  { id: "fra", city: "Frankfurt", country: "DE" },
  { id: "gru", city: "São Paulo", country: "BR" },
  { id: "hkg", city: "Hong Kong", country: "HK" },
  { id: "iad", city: "Ashburn", country: "US" },
  { id: "icn", city: "Seoul", country: "KR" },
  { id: "jnb", city: "Johannesburg", country: "ZA" },
  { id: "lax", city: "Los Angeles", country: "US" },
  { id: "lhr", city: "London", country: "GB" },
  { id: "los", city: "Lagos", country: "NG" },
  { id: "mad", city: "Madrid", country: "ES" },
  { id: "mex", city: "Mexico City", country: "MX" },
  { id: "nrt", city: "Tokyo", country: "JP" },
  { id: "scl", city: "Santiago", country: "CL" },
  { id: "sin", city: "Singapore", country: "SG" },
  { id: "syd", city: "Sydney", country: "AU" },
];

export function findEdgeLocation(id: string): EdgeLocation | undefined {
  return EDGE_LOCATIONS.find((location) => location.id === id);
}
