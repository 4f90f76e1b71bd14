// Real European airports used by the schedule generator: IATA code, name, IANA time zone and the
// aerodrome reference point (degrees, WGS84, rounded to 4 decimals). `demand` (1-5) is a made-up
// traffic weight for the fictional airlines' route choice; `spokeMct` is the minimum connection
// time used when the airport is not a hub of the file (larger, more complex airports need more).

export interface AirportData {
  code: string;
  name: string;
  timeZone: string;
  lat: number;
  lon: number;
  demand: number;
  spokeMct: number;
}

export const AIRPORTS: readonly AirportData[] = [
  // UTC+00:00 in November
  { code: 'LHR', name: 'London Heathrow', timeZone: 'Europe/London', lat: 51.4700, lon: -0.4543, demand: 5, spokeMct: 60 },
  { code: 'MAN', name: 'Manchester', timeZone: 'Europe/London', lat: 53.3537, lon: -2.2750, demand: 3, spokeMct: 50 },
  { code: 'EDI', name: 'Edinburgh', timeZone: 'Europe/London', lat: 55.9500, lon: -3.3725, demand: 2, spokeMct: 45 },
  { code: 'DUB', name: 'Dublin', timeZone: 'Europe/Dublin', lat: 53.4213, lon: -6.2701, demand: 3, spokeMct: 50 },
  { code: 'LIS', name: 'Lisbon Humberto Delgado', timeZone: 'Europe/Lisbon', lat: 38.7813, lon: -9.1359, demand: 3, spokeMct: 50 },
  { code: 'OPO', name: 'Porto Francisco Sa Carneiro', timeZone: 'Europe/Lisbon', lat: 41.2481, lon: -8.6814, demand: 2, spokeMct: 45 },
  // UTC+01:00 (CET)
  { code: 'CDG', name: 'Paris Charles de Gaulle', timeZone: 'Europe/Paris', lat: 49.0097, lon: 2.5479, demand: 5, spokeMct: 60 },
  { code: 'NCE', name: "Nice Cote d'Azur", timeZone: 'Europe/Paris', lat: 43.6584, lon: 7.2159, demand: 2, spokeMct: 45 },
  { code: 'LYS', name: 'Lyon Saint-Exupery', timeZone: 'Europe/Paris', lat: 45.7256, lon: 5.0811, demand: 2, spokeMct: 45 },
  { code: 'AMS', name: 'Amsterdam Schiphol', timeZone: 'Europe/Amsterdam', lat: 52.3105, lon: 4.7683, demand: 5, spokeMct: 60 },
  { code: 'BRU', name: 'Brussels', timeZone: 'Europe/Brussels', lat: 50.9010, lon: 4.4844, demand: 3, spokeMct: 50 },
  { code: 'FRA', name: 'Frankfurt am Main', timeZone: 'Europe/Berlin', lat: 50.0379, lon: 8.5622, demand: 5, spokeMct: 45 },
  { code: 'MUC', name: 'Munich Franz Josef Strauss', timeZone: 'Europe/Berlin', lat: 48.3537, lon: 11.7750, demand: 4, spokeMct: 50 },
  { code: 'BER', name: 'Berlin Brandenburg', timeZone: 'Europe/Berlin', lat: 52.3667, lon: 13.5033, demand: 4, spokeMct: 50 },
  { code: 'HAM', name: 'Hamburg', timeZone: 'Europe/Berlin', lat: 53.6304, lon: 9.9882, demand: 3, spokeMct: 45 },
  { code: 'DUS', name: 'Dusseldorf', timeZone: 'Europe/Berlin', lat: 51.2895, lon: 6.7668, demand: 3, spokeMct: 45 },
  { code: 'VIE', name: 'Vienna International', timeZone: 'Europe/Vienna', lat: 48.1103, lon: 16.5697, demand: 4, spokeMct: 45 },
  { code: 'ZRH', name: 'Zurich', timeZone: 'Europe/Zurich', lat: 47.4582, lon: 8.5555, demand: 4, spokeMct: 45 },
  { code: 'GVA', name: 'Geneva', timeZone: 'Europe/Zurich', lat: 46.2381, lon: 6.1090, demand: 3, spokeMct: 45 },
  { code: 'CPH', name: 'Copenhagen Kastrup', timeZone: 'Europe/Copenhagen', lat: 55.6180, lon: 12.6560, demand: 3, spokeMct: 50 },
  { code: 'ARN', name: 'Stockholm Arlanda', timeZone: 'Europe/Stockholm', lat: 59.6498, lon: 17.9238, demand: 3, spokeMct: 50 },
  { code: 'OSL', name: 'Oslo Gardermoen', timeZone: 'Europe/Oslo', lat: 60.1976, lon: 11.1004, demand: 3, spokeMct: 50 },
  { code: 'MAD', name: 'Madrid Barajas', timeZone: 'Europe/Madrid', lat: 40.4983, lon: -3.5676, demand: 4, spokeMct: 60 },
  { code: 'BCN', name: 'Barcelona El Prat', timeZone: 'Europe/Madrid', lat: 41.2974, lon: 2.0833, demand: 4, spokeMct: 50 },
  { code: 'PMI', name: 'Palma de Mallorca', timeZone: 'Europe/Madrid', lat: 39.5517, lon: 2.7388, demand: 2, spokeMct: 45 },
  { code: 'AGP', name: 'Malaga Costa del Sol', timeZone: 'Europe/Madrid', lat: 36.6749, lon: -4.4991, demand: 2, spokeMct: 45 },
  { code: 'FCO', name: 'Rome Fiumicino', timeZone: 'Europe/Rome', lat: 41.8003, lon: 12.2389, demand: 4, spokeMct: 60 },
  { code: 'MXP', name: 'Milan Malpensa', timeZone: 'Europe/Rome', lat: 45.6306, lon: 8.7281, demand: 3, spokeMct: 50 },
  { code: 'VCE', name: 'Venice Marco Polo', timeZone: 'Europe/Rome', lat: 45.5053, lon: 12.3519, demand: 2, spokeMct: 45 },
  { code: 'PRG', name: 'Prague Vaclav Havel', timeZone: 'Europe/Prague', lat: 50.1008, lon: 14.2600, demand: 3, spokeMct: 45 },
  { code: 'WAW', name: 'Warsaw Chopin', timeZone: 'Europe/Warsaw', lat: 52.1657, lon: 20.9671, demand: 3, spokeMct: 50 },
  { code: 'KRK', name: 'Krakow John Paul II', timeZone: 'Europe/Warsaw', lat: 50.0777, lon: 19.7848, demand: 2, spokeMct: 45 },
  { code: 'BUD', name: 'Budapest Ferenc Liszt', timeZone: 'Europe/Budapest', lat: 47.4369, lon: 19.2556, demand: 3, spokeMct: 45 },
  { code: 'ZAG', name: 'Zagreb Franjo Tudman', timeZone: 'Europe/Zagreb', lat: 45.7429, lon: 16.0688, demand: 2, spokeMct: 45 },
  { code: 'BEG', name: 'Belgrade Nikola Tesla', timeZone: 'Europe/Belgrade', lat: 44.8184, lon: 20.3091, demand: 2, spokeMct: 45 },
  { code: 'MLA', name: 'Malta International', timeZone: 'Europe/Malta', lat: 35.8575, lon: 14.4775, demand: 1, spokeMct: 45 },
  // UTC+02:00 (EET)
  { code: 'ATH', name: 'Athens Eleftherios Venizelos', timeZone: 'Europe/Athens', lat: 37.9364, lon: 23.9445, demand: 3, spokeMct: 50 },
  { code: 'SKG', name: 'Thessaloniki Makedonia', timeZone: 'Europe/Athens', lat: 40.5197, lon: 22.9709, demand: 2, spokeMct: 45 },
  { code: 'HEL', name: 'Helsinki-Vantaa', timeZone: 'Europe/Helsinki', lat: 60.3172, lon: 24.9633, demand: 3, spokeMct: 50 },
  { code: 'OTP', name: 'Bucharest Henri Coanda', timeZone: 'Europe/Bucharest', lat: 44.5711, lon: 26.0850, demand: 3, spokeMct: 50 },
  { code: 'SOF', name: 'Sofia', timeZone: 'Europe/Sofia', lat: 42.6952, lon: 23.4062, demand: 2, spokeMct: 45 },
  { code: 'RIX', name: 'Riga International', timeZone: 'Europe/Riga', lat: 56.9236, lon: 23.9711, demand: 2, spokeMct: 45 },
  { code: 'LCA', name: 'Larnaca International', timeZone: 'Asia/Nicosia', lat: 34.8751, lon: 33.6249, demand: 2, spokeMct: 50 },
  // UTC+03:00
  { code: 'IST', name: 'Istanbul', timeZone: 'Europe/Istanbul', lat: 41.2753, lon: 28.7519, demand: 4, spokeMct: 60 },
];

export const AIRPORTS_BY_CODE: ReadonlyMap<string, AirportData> = new Map(AIRPORTS.map((a) => [a.code, a]));
