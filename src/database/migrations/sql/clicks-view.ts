/** The `clicks` view as the click-rollups migration made it: the columns of the former table. */
export const VIEW_COLUMNS = `
      SELECT e."link_id", e."created_at",
             referrer."value" AS "referrer", country."value" AS "country",
             substr(city."value", strpos(city."value", ':') + 1) AS "city",
             continent."value" AS "continent", browser."value" AS "browser", os."value" AS "operating_system",
             device."value" AS "device", language."value" AS "language"`;
export const VIEW_JOINS = `
        FROM "click_events" e
        JOIN "click_profiles" p ON p."id" = e."profile_id"
        LEFT JOIN "click_values" referrer ON referrer."id" = p."referrer"
        LEFT JOIN "click_values" country ON country."id" = p."country"
        LEFT JOIN "click_values" city ON city."id" = p."city"
        LEFT JOIN "click_values" continent ON continent."id" = p."continent"
        LEFT JOIN "click_values" browser ON browser."id" = p."browser"
        LEFT JOIN "click_values" os ON os."id" = p."operating_system"
        LEFT JOIN "click_values" device ON device."id" = p."device"
        LEFT JOIN "click_values" language ON language."id" = p."language"`;
